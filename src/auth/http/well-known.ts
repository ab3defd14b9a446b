import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthContext } from './auth-context.js';
import { baseUrl } from '../../http/problems.js';
import { scopesOf } from '../access.js';
import { ADMIN_SCOPE } from '../scopes.js';

/**
 * `GET /.well-known/jwks.json`: the public keys that verify this server's access tokens. Cached
 * briefly by clients; a rotated-in key is found anyway because verifiers refetch on an unknown kid.
 */
export function jwksDocument(ctx: AuthContext) {
  return async (_request: FastifyRequest, reply: FastifyReply) => {
    const jwks = await ctx.auth.keyring.jwks();
    return reply.header('cache-control', 'public, max-age=300').type('application/jwk-set+json').send(JSON.stringify(jwks));
  };
}

/** `GET /.well-known/oauth-authorization-server`: RFC 8414 metadata of the token endpoint and friends. */
export function authorizationServerMetadata(ctx: AuthContext) {
  const scopes = new Set<string>([ADMIN_SCOPE]);
  for (const r of ctx.resources.values()) for (const rule of Object.values(r.access)) for (const s of scopesOf(rule)) scopes.add(s);
  const authMethods = ['client_secret_basic', 'client_secret_post'];
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const base = baseUrl(request);
    const body = {
      issuer: ctx.auth.audience().issuer,
      token_endpoint: `${base}/oauth/token`,
      jwks_uri: `${base}/.well-known/jwks.json`,
      grant_types_supported: ['client_credentials'],
      // Only the client credentials grant: there is no authorization endpoint, so no response types.
      response_types_supported: [],
      scopes_supported: [...scopes].sort(),
      token_endpoint_auth_methods_supported: authMethods,
      introspection_endpoint: `${base}/oauth/introspect`,
      introspection_endpoint_auth_methods_supported: authMethods,
      revocation_endpoint: `${base}/oauth/revoke`,
      revocation_endpoint_auth_methods_supported: authMethods,
    };
    return reply.header('cache-control', 'public, max-age=300').type('application/json').send(JSON.stringify(body));
  };
}
