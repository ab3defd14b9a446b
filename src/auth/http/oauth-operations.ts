import type { Json } from '../../http/openapi/components.js';
import { header } from '../../http/openapi/headers.js';
import type { OperationDoc } from '../../http/openapi/operation-doc.js';
import type { SchemaContext } from '../../http/openapi/schemas.js';

const FORM = 'application/x-www-form-urlencoded';

/** The RFC 6749 §5.2 error body the OAuth endpoints answer with (not problem+json: OAuth clients parse this). */
function oauthErrorSchema(ctx: SchemaContext): { $ref: string } {
  return ctx.components.schema('oauth-error', 'OAuthError', () => ({
    type: 'object',
    description: 'An OAuth 2.0 error (RFC 6749 §5.2).',
    required: ['error'],
    properties: {
      error: { type: 'string', enum: ['invalid_request', 'invalid_client', 'invalid_grant', 'unauthorized_client', 'unsupported_grant_type', 'invalid_scope', 'unsupported_token_type'] },
      error_description: { type: 'string', description: 'What went wrong, for the developer' },
    },
  }));
}

const clientCredentials = {
  client_id: { type: 'string', description: 'With client_secret: client authentication in the form (client_secret_post) instead of HTTP Basic' },
  client_secret: { type: 'string' },
};

function formBody(description: string, properties: Record<string, Json>, required: string[]): Json {
  return { required: true, description, content: { [FORM]: { schema: { type: 'object', required, properties: { ...properties, ...clientCredentials } } } } };
}

/** 200 with the endpoint's JSON, never cached (RFC 6749 §5.1), and its RFC 6749 errors. */
function oauthResponses(ctx: SchemaContext, description: string, schema: Json, errors: string): Record<string, Json> {
  const error = { 'application/json': { schema: oauthErrorSchema(ctx) } };
  return {
    '200': { description, headers: { 'Cache-Control': header(ctx, 'cache-control') }, content: { 'application/json': { schema } } },
    '400': { description: `An OAuth error: ${errors}.`, headers: { 'Cache-Control': header(ctx, 'cache-control', false) }, content: error },
    '401': {
      description: '`invalid_client`: the client is unknown or its secret is wrong, or no client authentication was sent.',
      headers: { 'WWW-Authenticate': header(ctx, 'www-authenticate'), 'Cache-Control': header(ctx, 'cache-control') },
      content: error,
    },
  };
}

/** The OAuth 2.0 endpoints and discovery documents, by operationId. */
export const OAUTH_OPERATIONS: Record<string, (ctx: SchemaContext) => OperationDoc> = {
  requestToken: (ctx) => ({
    description:
      'The client credentials grant (RFC 6749 §4.4): the client authenticates (HTTP Basic, or client_id and client_secret in the form) ' +
      'and gets an RFC 9068 JWT access token with the requested scopes it is allowed (all its scopes when none are requested).',
    requestBody: formBody('The token request', {
      grant_type: { type: 'string', enum: ['client_credentials'] },
      scope: { type: 'string', description: 'Space-separated scopes wanted' },
    }, ['grant_type']),
    responses: oauthResponses(ctx, 'The access token', {
      type: 'object',
      required: ['access_token', 'token_type', 'expires_in', 'scope'],
      properties: {
        access_token: { type: 'string', description: 'An RFC 9068 JWT; send it as `Authorization: Bearer <token>`' },
        token_type: { type: 'string', enum: ['Bearer'] },
        expires_in: { type: 'integer', minimum: 1, description: 'Seconds until it expires' },
        scope: { type: 'string', description: 'The scopes granted, space-separated' },
      },
    }, '`invalid_request`, `unsupported_grant_type` or `invalid_scope`'),
    problems: ['malformed-body', 'body-too-large', 'unavailable'],
    tag: 'oauth',
  }),
  introspectToken: (ctx) => ({
    description:
      'Token introspection (RFC 7662). A client learns about tokens issued to itself; a client allowed the admin scope `*` about any token, API keys included. ' +
      'Anything else is `{"active": false}`.',
    requestBody: formBody('The token to introspect', {
      token: { type: 'string' },
      token_type_hint: { type: 'string', description: 'Ignored: every kind of token is looked up' },
    }, ['token']),
    responses: oauthResponses(ctx, 'What the token is, or `active: false`', {
      type: 'object',
      required: ['active'],
      properties: {
        active: { type: 'boolean' },
        token_type: { type: 'string', enum: ['Bearer'] },
        scope: { type: 'string' },
        client_id: { type: 'string' },
        sub: { type: 'string' },
        iss: { type: 'string' },
        aud: { oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
        exp: { type: 'integer' },
        iat: { type: 'integer' },
        jti: { type: 'string' },
      },
    }, '`invalid_request`'),
    problems: ['malformed-body', 'body-too-large', 'unavailable'],
    tag: 'oauth',
  }),
  revokeToken: (ctx) => ({
    description:
      'Token revocation (RFC 7009). A client revokes its own access tokens; a client allowed `*` any token, and API keys. ' +
      'An unknown or already invalid token is still 200. The event streams the token holds open end at once on this node, on others within ' +
      '`events.stream.credentialCheck`.',
    requestBody: formBody('The token to revoke', {
      token: { type: 'string' },
      token_type_hint: { type: 'string', description: 'Ignored: every kind of token is looked up' },
    }, ['token']),
    responses: oauthResponses(ctx, 'Revoked (or was not valid anyway)', { type: 'object', maxProperties: 0 }, '`invalid_request`, or `unauthorized_client` for a token issued to another client'),
    problems: ['malformed-body', 'body-too-large', 'unavailable'],
    tag: 'oauth',
  }),
  getJwks: (ctx) => ({
    description: 'The public keys (RFC 7517 JWK Set) that verify the access tokens this server issues, including retired keys still in use.',
    responses: {
      '200': {
        description: 'The JWK Set',
        headers: { 'Cache-Control': header(ctx, 'cache-control') },
        content: {
          'application/jwk-set+json': {
            schema: {
              type: 'object',
              required: ['keys'],
              properties: {
                keys: {
                  type: 'array',
                  items: { type: 'object', required: ['kty'], properties: { kty: { type: 'string' }, kid: { type: 'string' }, alg: { type: 'string' }, use: { type: 'string' }, crv: { type: 'string' }, x: { type: 'string' }, y: { type: 'string' } } },
                },
              },
            },
          },
        },
      },
    },
    problems: ['unavailable'],
    tag: 'oauth',
  }),
  getAuthorizationServerMetadata: (ctx) => ({
    description: 'Where the token, introspection and revocation endpoints and the keys are, and what they support (RFC 8414).',
    responses: {
      '200': {
        description: 'The metadata',
        headers: { 'Cache-Control': header(ctx, 'cache-control') },
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['issuer', 'token_endpoint', 'jwks_uri', 'grant_types_supported', 'response_types_supported'],
              properties: {
                issuer: { type: 'string', format: 'uri' },
                token_endpoint: { type: 'string', format: 'uri' },
                jwks_uri: { type: 'string', format: 'uri' },
                grant_types_supported: { type: 'array', items: { type: 'string' } },
                response_types_supported: { type: 'array', items: { type: 'string' } },
                scopes_supported: { type: 'array', items: { type: 'string' } },
                token_endpoint_auth_methods_supported: { type: 'array', items: { type: 'string' } },
                introspection_endpoint: { type: 'string', format: 'uri' },
                introspection_endpoint_auth_methods_supported: { type: 'array', items: { type: 'string' } },
                revocation_endpoint: { type: 'string', format: 'uri' },
                revocation_endpoint_auth_methods_supported: { type: 'array', items: { type: 'string' } },
              },
            },
          },
        },
      },
    },
    problems: [],
    tag: 'oauth',
  }),
};
