import type { Json } from '../../http/openapi/components.js';
import { header } from '../../http/openapi/headers.js';
import type { OperationDoc } from '../../http/openapi/operation-doc.js';
import { representations } from '../../http/openapi/representations.js';
import { linksSchema, type SchemaContext } from '../../http/openapi/schemas.js';

const scopes = {
  description: 'The scopes it grants (RFC 6749 scope tokens): a space-separated string or a list',
  oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
};
const name = { type: 'string', minLength: 1, maxLength: 200, description: 'What the credential is for' };

/** An admin-only credential collection (API keys, OAuth clients): how its member and its input look. */
interface Credential {
  tag: string;
  noun: string;
  /** Relation name of the list in `_embedded`. */
  rel: string;
  member: (ctx: SchemaContext) => { $ref: string };
  input: Json;
  /** The member schema as created: with the secret it shows once. */
  secret: { name: string; description: string };
}

const API_KEY: Credential = {
  tag: 'api-keys',
  noun: 'API key',
  rel: 'api-keys',
  member: (ctx) =>
    ctx.components.schema('api-key', 'ApiKey', () => ({
      type: 'object',
      description: 'An API key as stored: never the key itself, only its first characters (`hint`).',
      required: ['id', 'name', 'scopes', 'subject', 'createdAt', 'expiresAt', 'hint', '_links'],
      properties: {
        id: { type: 'string', description: 'Public id (`key_…`), used to read and revoke it' },
        name: { type: 'string' },
        scopes: { type: 'array', items: { type: 'string' } },
        subject: { type: 'string', description: 'Who requests made with the key act as (they own the records they create)' },
        createdAt: { type: 'string', format: 'date-time' },
        expiresAt: { type: ['string', 'null'], format: 'date-time' },
        hint: { type: 'string', description: 'The first characters of the key' },
        _links: linksSchema(ctx, ['self', 'collection'], ['self', 'collection'], 'self and the collection'),
      },
    })),
  input: {
    type: 'object',
    additionalProperties: false,
    required: ['name'],
    properties: { name, scopes, expiresIn: { type: 'string', description: 'Lifetime, e.g. `3600s`, `90m`, `12h`, `30d`; none: the key does not expire' } },
  },
  secret: { name: 'key', description: 'The API key (`rw_…`): shown only in this response' },
};

const OAUTH_CLIENT: Credential = {
  tag: 'oauth',
  noun: 'OAuth client',
  rel: 'clients',
  member: (ctx) =>
    ctx.components.schema('oauth-client', 'OAuthClient', () => ({
      type: 'object',
      description: 'A registered OAuth client: it gets access tokens from /oauth/token with the client credentials grant. Never its secret.',
      required: ['client_id', 'name', 'scopes', 'createdAt', '_links'],
      properties: {
        client_id: { type: 'string' },
        name: { type: 'string' },
        scopes: { type: 'array', items: { type: 'string' }, description: 'The scopes its tokens may carry' },
        createdAt: { type: 'string', format: 'date-time' },
        _links: linksSchema(ctx, ['self', 'collection', 'token'], ['self', 'collection'], 'self, the collection and the token endpoint'),
      },
    })),
  input: { type: 'object', additionalProperties: false, required: ['name'], properties: { name, scopes } },
  secret: { name: 'client_secret', description: 'The client secret: shown only in this response' },
};

const idParameter = (c: Credential) => ({ id: { type: 'string', minLength: 1, description: `The id of an ${c.noun}` } });

/** The four operations of one credential collection, by route kind. */
function credentialOperations(c: Credential): Record<string, (ctx: SchemaContext) => OperationDoc> {
  return {
    list: (ctx) => ({
      description: `Every ${c.noun}, without secrets.`,
      responses: {
        '200': {
          description: `The ${c.noun}s`,
          content: representations({
            type: 'object',
            required: ['_links', 'count', '_embedded'],
            properties: {
              _links: linksSchema(ctx, ['self'], ['self'], 'self'),
              count: { type: 'integer', minimum: 0 },
              _embedded: { type: 'object', required: [c.rel], properties: { [c.rel]: { type: 'array', items: c.member(ctx) } } },
            },
          }),
        },
      },
      problems: ['unavailable'],
      tag: c.tag,
    }),
    create: (ctx) => ({
      description: `Creates an ${c.noun}. The response is the only place its secret ever appears: it is not stored, and not replayed for an Idempotency-Key.`,
      requestBody: { required: true, description: `The new ${c.noun}`, content: { 'application/json': { schema: c.input }, 'application/hal+json': { schema: c.input } } },
      responses: {
        '201': {
          description: `Created; the body carries the ${c.secret.name}, once`,
          headers: { Location: header(ctx, 'location'), 'Cache-Control': header(ctx, 'cache-control') },
          content: representations({
            allOf: [
              c.member(ctx),
              {
                type: 'object',
                required: [c.secret.name],
                properties: {
                  [c.secret.name]: { type: 'string', description: c.secret.description },
                  warnings: { type: 'array', items: { type: 'string' }, description: 'Present when a scope it was given is one nothing on this server checks (see GET /api-keys/scopes): it grants nothing, and may be a typo' },
                },
              },
            ],
          }),
        },
      },
      problems: ['malformed-json', 'malformed-body', 'body-too-large', 'unsupported-media-type', 'validation-failed', 'unavailable'],
      problemHeaders: { 415: { 'Accept-Post': header(ctx, 'accept-post') } },
      tag: c.tag,
    }),
    read: (ctx) => ({
      description: `One ${c.noun}, without its secret.`,
      pathParameters: idParameter(c),
      responses: { '200': { description: `The ${c.noun}`, content: representations(c.member(ctx)) } },
      problems: ['not-found', 'unavailable'],
      tag: c.tag,
    }),
    delete: () => ({
      description: `Deletes the ${c.noun}: it stops working at once on this node, on others within the token cache time. The event streams it holds open end at once on this node, on others within \`events.stream.credentialCheck\`.`,
      pathParameters: idParameter(c),
      responses: { '204': { description: 'Deleted' } },
      problems: ['not-found', 'unavailable'],
      tag: c.tag,
    }),
  };
}

const keys = credentialOperations(API_KEY);
const clients = credentialOperations(OAUTH_CLIENT);

const scopeEntry = {
  type: 'object',
  required: ['scope', 'group', 'description'],
  properties: {
    scope: { type: 'string', description: 'The scope token' },
    group: { type: 'string', enum: ['resource', 'events', 'webhooks', 'metrics', 'admin'], description: 'What part of the API it opens' },
    description: { type: 'string', description: 'What a token holding it may do' },
    resources: { type: 'array', items: { type: 'string' }, description: 'For resource scopes: the collections whose access rules name it' },
  },
};

/** `GET /api-keys/scopes`: the scope catalog. */
function listScopes(ctx: SchemaContext): OperationDoc {
  return {
    description:
      'Every scope this server checks: those the collections\' access rules name, `events:read`, `webhooks:read`, `webhooks:write`, `metrics:read` (when a token guards /metrics) and the admin scope `*`. A key or client may be given other scopes, but they grant nothing here.',
    responses: {
      '200': {
        description: 'The scopes, the collections\' first, in config order',
        content: representations({
          type: 'object',
          required: ['_links', 'count', 'scopes'],
          properties: { _links: linksSchema(ctx, ['self'], ['self'], 'self'), count: { type: 'integer', minimum: 0 }, scopes: { type: 'array', items: scopeEntry } },
        }),
      },
    },
    problems: ['unavailable'],
    tag: 'api-keys',
  };
}

/** The admin-only credential collections (/api-keys, /oauth/clients), by operationId. */
export const CREDENTIAL_OPERATIONS: Record<string, (ctx: SchemaContext) => OperationDoc> = {
  listApiKeys: keys.list!,
  createApiKey: keys.create!,
  getApiKey: keys.read!,
  revokeApiKey: keys.delete!,
  listScopes,
  listOAuthClients: clients.list!,
  createOAuthClient: clients.create!,
  getOAuthClient: clients.read!,
  deleteOAuthClient: clients.delete!,
};
