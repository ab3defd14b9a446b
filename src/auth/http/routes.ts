import { documented, type Route } from '../../http/route.js';
import type { AuthContext } from './auth-context.js';
import { CREDENTIAL_OPERATIONS } from './credential-operations.js';
import { OAUTH_OPERATIONS } from './oauth-operations.js';
import { ADMIN_SCOPE } from '../scopes.js';
import { apiKeyHandlers as keys } from './api-keys-resource.js';
import { clientHandlers as clients } from './clients-resource.js';
import { meHandler, meOperation } from './me.js';
import { introspectionEndpoint } from './introspection-endpoint.js';
import { revocationEndpoint } from './revocation-endpoint.js';
import { scopeCatalogHandler } from './scope-catalog-route.js';
import { tokenEndpoint } from './token-endpoint.js';
import { authorizationServerMetadata, jwksDocument } from './well-known.js';

const admin = [ADMIN_SCOPE];

/**
 * The auth routes: discovery documents, the OAuth 2.0 endpoints (which authenticate the client
 * themselves and take form bodies), and the admin-only credential collections.
 */
export function authRoutes(): Route<AuthContext>[] {
  return documented<Route<AuthContext>>([
    { method: 'GET', path: '/.well-known/jwks.json', operationId: 'getJwks', summary: 'Public keys that verify the access tokens this server issues (RFC 7517)', handler: jwksDocument, kind: 'meta' },
    { method: 'GET', path: '/.well-known/oauth-authorization-server', operationId: 'getAuthorizationServerMetadata', summary: 'OAuth 2.0 authorization server metadata (RFC 8414)', handler: authorizationServerMetadata, kind: 'meta' },
    { method: 'POST', path: '/oauth/token', operationId: 'requestToken', summary: 'Get an access token: client credentials grant (RFC 6749 §4.4)', handler: tokenEndpoint, kind: 'meta', access: 'client', form: true },
    { method: 'POST', path: '/oauth/introspect', operationId: 'introspectToken', summary: 'Token introspection (RFC 7662)', handler: introspectionEndpoint, kind: 'meta', access: 'client', form: true },
    { method: 'POST', path: '/oauth/revoke', operationId: 'revokeToken', summary: 'Token revocation (RFC 7009)', handler: revocationEndpoint, kind: 'meta', access: 'client', form: true },
    { method: 'GET', path: '/me', operationId: 'getMe', summary: 'What the caller\'s token is and may do', handler: meHandler, kind: 'meta', access: [] },
    { method: 'GET', path: '/oauth/clients', operationId: 'listOAuthClients', summary: 'List OAuth clients', handler: clients.list, kind: 'list', access: admin },
    { method: 'POST', path: '/oauth/clients', operationId: 'createOAuthClient', summary: 'Register an OAuth client (its secret is in the response, once)', handler: clients.create, kind: 'create', access: admin, secretResponse: true },
    { method: 'GET', path: '/oauth/clients/:id', operationId: 'getOAuthClient', summary: 'Read an OAuth client', handler: clients.read, kind: 'read', access: admin },
    { method: 'DELETE', path: '/oauth/clients/:id', operationId: 'deleteOAuthClient', summary: 'Delete an OAuth client (its tokens stop working)', handler: clients.remove, kind: 'delete', access: admin },
    { method: 'GET', path: '/api-keys', operationId: 'listApiKeys', summary: 'List API keys (never the keys themselves)', handler: keys.list, kind: 'list', access: admin },
    { method: 'POST', path: '/api-keys', operationId: 'createApiKey', summary: 'Create an API key (the key is in the response, once)', handler: keys.create, kind: 'create', access: admin, secretResponse: true },
    { method: 'GET', path: '/api-keys/scopes', operationId: 'listScopes', summary: 'The scopes this server checks, with what each grants (for picking a key\'s or client\'s scopes)', handler: scopeCatalogHandler, kind: 'meta', access: admin },
    { method: 'GET', path: '/api-keys/:id', operationId: 'getApiKey', summary: 'Read an API key', handler: keys.read, kind: 'read', access: admin },
    { method: 'DELETE', path: '/api-keys/:id', operationId: 'revokeApiKey', summary: 'Revoke an API key', handler: keys.remove, kind: 'delete', access: admin },
  ], { ...OAUTH_OPERATIONS, ...CREDENTIAL_OPERATIONS, getMe: meOperation });
}
