/** The admin scope: a token holding it may do everything. */
export const ADMIN_SCOPE = '*';

/** Scope tokens per RFC 6749 §3.3: printable ASCII except space, `"` and `\`. */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/** Splits a space-delimited scope string (or takes a list) into distinct scope tokens. */
export function parseScopes(value: unknown): string[] {
  const list = Array.isArray(value) ? value.map(String) : typeof value === 'string' ? value.split(' ') : [];
  return [...new Set(list.map((s) => s.trim()).filter(Boolean))];
}

/** The scope tokens of `list` that are not valid RFC 6749 scope tokens. */
export function invalidScopes(list: string[]): string[] {
  return list.filter((s) => !SCOPE_TOKEN.test(s));
}

/** True when `held` grants every scope in `needed` (the admin scope grants all). */
export function grants(held: ReadonlySet<string>, needed: readonly string[]): boolean {
  if (held.has(ADMIN_SCOPE)) return true;
  return needed.every((s) => held.has(s));
}

/**
 * The scopes a client gets: what it asked for, narrowed to what it is allowed (RFC 6749 §3.3);
 * everything it is allowed when it asked for nothing.
 */
export function narrowScopes(requested: string[], allowed: string[]): string[] {
  if (!requested.length) return allowed;
  if (allowed.includes(ADMIN_SCOPE)) return requested;
  return requested.filter((s) => allowed.includes(s));
}
