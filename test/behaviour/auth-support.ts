import { SignJWT, type JWTPayload } from 'jose';
import type { RestwellServer } from '../../src/app/server.js';

/** A config exercising every kind of access rule: public reads, scoped writes, owner-only notes. */
export const AUTH_CONFIG = {
  resources: {
    characters: {
      fields: { name: { type: 'string', required: true, unique: true }, number: { type: 'string' } },
      access: { read: 'public', write: ['characters:write'] },
    },
    notes: {
      fields: { text: { type: 'string', required: true } },
      access: { read: 'owner', write: 'owner' },
    },
  },
};

/** `Authorization: Bearer …` plus JSON content type. */
export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
}

/** A fresh API key with the given scopes, straight through the auth service. */
export async function apiKey(server: RestwellServer, scopes: string[], name = 'test'): Promise<string> {
  return (await server.context.auth.apiKeys.create({ name, scopes })).key;
}

/** Signs a token with the server's current signing key, with claims and header as a test wants them. */
export async function signWithServerKey(server: RestwellServer, claims: JWTPayload, header: Record<string, unknown> = {}): Promise<string> {
  const key = await server.context.auth.keyring.current();
  return new SignJWT(claims).setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'at+jwt', ...header }).sign(key.privateKey);
}

/** Claims of a well-formed token for `inject()` requests (a server not yet listening, on the default server.port: its origin is http://localhost:8080). */
export function goodClaims(clientId: string, scope: string, overrides: JWTPayload = {}): JWTPayload {
  const now = Math.floor(Date.now() / 1000);
  return { iss: 'http://localhost:8080', aud: 'http://localhost:8080', sub: clientId, client_id: clientId, scope, iat: now, exp: now + 300, jti: `j${Math.random()}`, ...overrides };
}
