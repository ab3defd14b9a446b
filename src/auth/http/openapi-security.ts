import type { AccessRule } from '../../config/types.js';
import type { ResourceDefinition } from '../../core/resource.js';
import { rulesFor, scopesOf, type ResourceOperation } from '../access.js';
import { ADMIN_SCOPE } from '../scopes.js';

type Json = Record<string, unknown>;
/** What the OpenAPI generator knows of a route. */
export interface SecuredRoute {
  kind: string;
  resource?: ResourceDefinition;
  access?: AccessRule | 'client';
  /** A second rule that also admits (to a narrower view). */
  alsoAccess?: AccessRule;
}

const RESOURCE_KINDS = new Set(['list', 'create', 'read', 'replace', 'patch', 'delete']);

/** The security schemes: a bearer token (API key or JWT), OAuth 2.0 client credentials, client Basic auth. */
export function securitySchemes(resources: Iterable<ResourceDefinition>, routes: Iterable<SecuredRoute & { path: string }> = []): Json {
  const scopes: Record<string, string> = { [ADMIN_SCOPE]: 'Admin: every operation, including /api-keys and /oauth/clients' };
  for (const r of resources) for (const rule of Object.values(r.access)) for (const s of scopesOf(rule)) scopes[s] = `Required by some operations on ${r.name}`;
  for (const route of routes) {
    if (!route.access || route.access === 'client') continue;
    for (const s of scopesOf(route.access)) scopes[s] ??= `Required by ${route.path.replace(/:(\w+)/g, '{$1}')}`;
    for (const s of route.alsoAccess ? scopesOf(route.alsoAccess) : []) scopes[s] ??= `Enough for ${route.path.replace(/:(\w+)/g, '{$1}')} (its own items only)`;
  }
  return {
    bearer: { type: 'http', scheme: 'bearer', description: 'An API key (`rw_…`, from `restwell keys create` or POST /api-keys) or an access token (RFC 9068 JWT) from /oauth/token or a configured issuer' },
    oauth2: { type: 'oauth2', description: 'OAuth 2.0 client credentials (RFC 6749 §4.4)', flows: { clientCredentials: { tokenUrl: '/oauth/token', scopes } } },
    clientBasic: { type: 'http', scheme: 'basic', description: 'OAuth client authentication: client_id and client_secret (or send them in the form body)' },
  };
}

/** How an operation is protected, as the document says it. */
export interface OperationSecurity {
  /** Its security requirements; `[]` when it is public. */
  security: Json[];
  /** The problems the auth guard can answer with before the operation runs. */
  problems: Array<'malformed-authorization' | 'unauthorized' | 'forbidden' | 'unavailable'>;
  /** The guard runs (and counts the request against the rate limit, when one is configured). */
  guarded: boolean;
  /** 401 and 403 carry a Bearer challenge (WWW-Authenticate). */
  bearer: boolean;
}

/**
 * The security of one operation, mirroring the auth guard: routes without rules are public and
 * unguarded; public rules still reject a bad token; scoped rules list their scopes; `owner` rules
 * need any token. Verifying a token may read the store or an issuer's keys, hence 503.
 */
export function operationSecurity(route: SecuredRoute): OperationSecurity {
  if (route.access === 'client') return { security: [{ clientBasic: [] }, {}], problems: [], guarded: true, bearer: false };
  const rules = route.access ? [route.access] : route.resource && RESOURCE_KINDS.has(route.kind) ? rulesFor(route.resource, route.kind as ResourceOperation) : undefined;
  if (!rules) return { security: [], problems: [], guarded: false, bearer: false };
  if (rules.every((r) => r === 'public')) return { security: [], problems: ['malformed-authorization', 'unauthorized', 'unavailable'], guarded: true, bearer: true };
  const scopes = [...new Set(rules.flatMap(scopesOf))];
  return {
    // Only OAuth 2.0 schemes carry scopes; the bearer scheme lists none (its scopes are the same).
    security: [{ bearer: [] }, { oauth2: scopes }, ...(route.alsoAccess ? [{ oauth2: scopesOf(route.alsoAccess) }] : [])],
    problems: ['malformed-authorization', 'unauthorized', ...(scopes.length ? (['forbidden'] as const) : []), 'unavailable'],
    guarded: true,
    bearer: true,
  };
}
