import { ValidationError, type FieldError } from '../../core/errors.js';
import { parseKeyLifetime } from '../api-keys.js';
import { invalidScopes, parseScopes } from '../scopes.js';

/** A validated body of `POST /api-keys` or `POST /oauth/clients`. */
export interface CredentialInput {
  name: string;
  scopes: string[];
  expiresInSeconds?: number;
}

/**
 * Validates `{name, scopes, expiresIn?}`: name 1–200 characters; scopes a space-separated string
 * or a list of RFC 6749 scope tokens; expiresIn (API keys only) a duration such as `30d`, at most ten years.
 */
export function parseCredentialInput(body: unknown, allowExpiry: boolean): CredentialInput {
  const errors: FieldError[] = [];
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ValidationError([{ pointer: '', detail: 'must be a JSON object with name and scopes' }]);
  const b = body as Record<string, unknown>;
  const known = new Set(['name', 'scopes', ...(allowExpiry ? ['expiresIn'] : [])]);
  for (const k of Object.keys(b)) if (!known.has(k)) errors.push({ pointer: `/${k}`, detail: `unknown field; allowed: ${[...known].join(', ')}` });
  if (typeof b.name !== 'string' || !b.name.trim() || b.name.length > 200) errors.push({ pointer: '/name', detail: 'required: a string of 1 to 200 characters' });
  let scopes: string[] = [];
  if (b.scopes !== undefined && typeof b.scopes !== 'string' && !(Array.isArray(b.scopes) && b.scopes.every((s) => typeof s === 'string'))) {
    errors.push({ pointer: '/scopes', detail: 'must be a space-separated string or a list of strings' });
  } else {
    scopes = parseScopes(b.scopes ?? []);
    const bad = invalidScopes(scopes);
    if (bad.length) errors.push({ pointer: '/scopes', detail: `not valid scope tokens: ${bad.join(', ')}` });
  }
  let expiresInSeconds: number | undefined;
  if (allowExpiry && b.expiresIn !== undefined) {
    try {
      expiresInSeconds = parseKeyLifetime(typeof b.expiresIn === 'string' ? b.expiresIn : '');
    } catch (err) {
      errors.push({ pointer: '/expiresIn', detail: (err as Error).message });
    }
  }
  if (errors.length) throw new ValidationError(errors);
  return { name: (b.name as string).trim(), scopes, expiresInSeconds };
}
