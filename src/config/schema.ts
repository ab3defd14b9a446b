import { FIELD_TYPES } from './types.js';
import { durationMsSchema, durationSchema, retentionSchema } from './sizes.js';
import { webhooksSchema } from './webhooks-schema.js';

/** An origin (scheme, host, optional port), with `*` allowed as the port or as the leftmost labels; or `*` alone. */
const CORS_ORIGIN = '^(\\*|https?://(\\*\\.)?([A-Za-z0-9-]+\\.)*[A-Za-z0-9-]+(:(\\d{1,5}|\\*))?|https?://\\[[0-9A-Fa-f:.]+\\](:(\\d{1,5}|\\*))?)$';
const name = '^[a-z][a-zA-Z0-9_-]{0,62}$';
const fieldName = '^[a-zA-Z][a-zA-Z0-9_]{0,62}$';
const duration = durationSchema();
const positiveDuration = durationSchema(true);
const rateLimit = {
  type: 'object',
  additionalProperties: false,
  required: ['limit', 'window'],
  properties: { limit: { type: 'integer', minimum: 1 }, window: duration },
};
const accessRule = {
  oneOf: [
    { enum: ['public', 'owner'] },
    { type: 'array', items: { type: 'string', minLength: 1 }, minItems: 1 },
    { type: 'string', pattern: '^[^\\s]+(\\s+[^\\s]+)*$', not: { enum: ['public', 'owner'] } },
  ],
};

/**
 * The published JSON Schema (2020-12) of a Restwell config file.
 * `restwell config-schema` prints it; editors can point `$schema` at it.
 */
export const configSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://restwell.dev/schemas/config.json',
  title: 'Restwell configuration',
  type: 'object',
  additionalProperties: false,
  properties: {
    $schema: { type: 'string' },
    server: {
      type: 'object',
      additionalProperties: false,
      properties: {
        port: { type: 'integer', minimum: 0, maximum: 65535 },
        host: { type: 'string', minLength: 1 },
        bodyLimit: {
          description: 'Largest accepted request body: bytes, or a size such as 512kb or 1mb',
          oneOf: [{ type: 'integer', minimum: 1 }, { type: 'string', pattern: '^\\d+(\\.\\d+)?\\s*(b|kb|mb|gb)?$' }],
        },
        recordLimit: {
          description: 'Largest record a write may produce, as JSON: bytes, or a size such as 1mb, at most 256mb. A POST, PUT, PATCH (checked at each JSON Patch operation), webhook store action or import row whose record would be larger is refused (413 over HTTP). Default: bodyLimit, or the larger bodyLimit of a webhook source that stores records',
          oneOf: [{ type: 'integer', minimum: 1 }, { type: 'string', pattern: '^\\d+(\\.\\d+)?\\s*(b|kb|mb|gb)?$' }],
        },
        batch: {
          description: 'Bounds of POST /batch and of a bulk create (POST /{collection} with a JSON array), each run as one transaction',
          type: 'object',
          additionalProperties: false,
          properties: {
            maxRequests: { description: 'Most sub-requests in one batch, or records in one bulk create (default 100)', type: 'integer', minimum: 1, maximum: 10000 },
            maxBytes: {
              description: 'Largest POST /batch body: bytes, or a size such as 512kb (default, and at most, bodyLimit)',
              oneOf: [{ type: 'integer', minimum: 1 }, { type: 'string', pattern: '^\\d+(\\.\\d+)?\\s*(b|kb|mb|gb)?$' }],
            },
          },
        },
        maxJsonDepth: { description: 'Deepest nesting accepted in a JSON body, a stored json value or a webhook payload (default 64)', type: 'integer', minimum: 2, maximum: 1000 },
        headersTimeout: { ...positiveDuration, description: 'Longest time a client may take to send the request line and headers, e.g. 10s (default); then 408' },
        requestTimeout: { ...positiveDuration, description: 'Longest time a client may take to send a whole request, body included, e.g. 30s (default); then 408. At least headersTimeout' },
        keepAliveTimeout: { ...positiveDuration, description: 'How long an idle keep-alive connection stays open (default 72s)' },
        maxConnectionsPerClient: { description: 'Open connections allowed from one client address, per process (default 256); more are answered 429 and closed. Behind a reverse proxy every connection comes from the proxy: raise it to what the proxy opens', type: 'integer', minimum: 1 },
        publicUrl: { type: 'string', format: 'uri' },
        metrics: { description: 'Who may read the Prometheus metrics at GET /metrics: token (default: a bearer token with scope metrics:read), public (anyone who can reach the port), or off (no /metrics and nothing counted)', enum: ['token', 'public', 'off'] },
        metricsHistory: {
          description: 'The in-memory history of this node\'s metrics that the console\'s dashboard draws (GET /metrics/history); nothing is kept when metrics is off',
          type: 'object',
          additionalProperties: false,
          properties: {
            interval: { ...durationMsSchema(true), description: 'How often a sample is taken, e.g. 10s (default)' },
            keep: { ...durationMsSchema(true), description: 'How long samples are kept, e.g. 1h (default); at most 10000 samples (keep / interval)' },
          },
        },
        drainTimeout: { ...durationMsSchema(true), description: 'At shutdown (SIGTERM, SIGINT), how long requests under way may take to finish before their connections are closed, e.g. 10s (default)' },
        static: { type: 'string', minLength: 1, description: 'A folder of files (a front-end) served beside the API, relative to the working directory: GET /app.js serves its app.js unless a route of the API has that path; GET / serves its index.html to browsers (Accept prefers text/html), the API root to everyone else. No directory listings; dotfiles and anything outside the folder are never served. Default: none (serve <file.json> uses ./public when it exists)' },
        cors: {
          description: 'Browser pages of these origins may call the API (CORS). The API takes bearer tokens, never cookies. Default: none (serve <file.json> allows http://localhost:*, http://127.0.0.1:* and http://[::1]:*, with credentials, as json-server does)',
          type: 'object',
          additionalProperties: false,
          required: ['origins'],
          properties: {
            origins: {
              type: 'array',
              minItems: 1,
              description: 'Exact origins (https://app.example.com), any port of a host (http://localhost:*), any subdomain (https://*.example.com), or * for every origin',
              items: { type: 'string', pattern: CORS_ORIGIN },
            },
            maxAge: { ...duration, description: 'How long a browser may reuse a preflight (OPTIONS) answer, e.g. 10m (default); browsers cap it (Chromium at 2h)' },
            credentials: {
              type: 'boolean',
              description: "Let pages that send credentials (fetch's credentials: 'include', axios's withCredentials) read the answers: Access-Control-Allow-Credentials: true. The API reads no cookies, so no request gains any authority by it. Default false",
            },
          },
        },
      },
    },
    database: { type: 'string', minLength: 1 },
    allowDestructiveMigrations: { type: 'boolean' },
    compat: {
      description: "json-server: every resource answers as json-server 0.17 does (bare arrays and objects, X-Total-Count, _page paging; see the README's json-server profile) unless the resource says compat: hal. Default: Restwell's HAL API",
      enum: ['json-server', 'hal'],
    },
    idempotency: {
      type: 'object',
      additionalProperties: false,
      properties: { ttl: { ...duration, description: 'How long an Idempotency-Key is remembered, e.g. 24h' } },
    },
    resources: {
      type: 'object',
      propertyNames: { pattern: name },
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        required: ['fields'],
        properties: {
          id: { enum: ['integer', 'uuid', 'string'], description: 'integer (server-assigned 1, 2, 3…, the default), uuid (UUID text, lower-cased) or string (1–64 characters of A-Z a-z 0-9 _ -, case-sensitive, kept exactly); POST draws the id on uuid and string resources (a UUIDv7), PUT at a new id creates it' },
          description: { type: 'string' },
          fields: {
            type: 'object',
            propertyNames: { pattern: fieldName, not: { enum: ['id', 'version', 'createdAt', 'updatedAt'] } },
            additionalProperties: {
              type: 'object',
              additionalProperties: false,
              required: ['type'],
              properties: {
                type: { enum: [...FIELD_TYPES] },
                required: { type: 'boolean' },
                unique: { type: 'boolean' },
                index: { type: 'boolean' },
                default: {},
                maxLength: { type: 'integer', minimum: 0 },
                minLength: { type: 'integer', minimum: 0 },
                minimum: { type: 'number' },
                maximum: { type: 'number' },
                pattern: { type: 'string', format: 'regex' },
                values: { type: 'array', items: { type: 'string' }, minItems: 1, uniqueItems: true },
                to: { type: 'string', pattern: name },
                description: { type: 'string' },
                renamedFrom: {
                  description:
                    'The name this field had before (a list: every earlier name). At start-up a stored field of that name is renamed to this one, keeping its values and indexes; once renamed this does nothing, so it may stay. Old events keep the old name',
                  oneOf: [
                    { type: 'string', pattern: fieldName },
                    { type: 'array', items: { type: 'string', pattern: fieldName }, minItems: 1, uniqueItems: true },
                  ],
                },
              },
              allOf: [
                { if: { properties: { type: { const: 'enum' } } }, then: { required: ['values'] } },
                { if: { properties: { type: { const: 'reference' } } }, then: { required: ['to'] } },
              ],
            },
          },
          access: {
            type: 'object',
            description: 'Who may read and write: public, owner, or scopes. What is left out defaults to read: public and write: [<resource>:write]; create, update and delete default to write',
            additionalProperties: false,
            properties: { read: accessRule, write: accessRule, create: accessRule, update: accessRule, delete: accessRule },
          },
          requireIfMatch: {
            type: 'boolean',
            description: 'Refuse unconditional writes (428): PUT, PATCH and DELETE must send If-Match (or, to create with PUT, If-None-Match: *)',
          },
          compat: { description: "json-server: this resource answers as json-server 0.17 does; hal: Restwell's HAL API. Default: the top-level compat", enum: ['json-server', 'hal'] },
          singular: {
            type: 'boolean',
            description: 'One object, not a collection (json-server\'s "profile": {…}): served at /{name} (GET, PUT, PATCH, DELETE), holding at most one record. Default: false',
          },
          search: {
            description: 'The fields the q= parameter searches (case-insensitive substring), each a string or enum field of this resource; default every string field; false turns q= off',
            oneOf: [{ type: 'array', items: { type: 'string', pattern: fieldName }, uniqueItems: true }, { const: false }],
          },
        },
      },
    },
    webhooks: webhooksSchema,
    retention: {
      type: 'object',
      additionalProperties: false,
      description: 'The background worker that prunes every log (events, inbox, outbound deliveries, expired keys and documents)',
      properties: {
        interval: { ...durationMsSchema(true), description: 'How often each node runs a pruning pass (default 1m)' },
        batchSize: { type: 'integer', minimum: 1, maximum: 5000, description: 'Rows deleted per statement, each its own short write (default 1000)' },
      },
    },
    events: {
      type: 'object',
      additionalProperties: false,
      properties: {
        retention: {
          type: 'object',
          additionalProperties: false,
          description: 'How much of the event log is kept; events an outbound endpoint has not yet had, or a pending delivery needs, are always kept',
          properties: {
            maxAge: retentionSchema('Events older than this are pruned, e.g. 30d (default), or off'),
            maxCount: { description: 'At most this many of the newest events are kept (default 1000000), or off', oneOf: [{ type: 'integer', minimum: 1 }, { const: 'off' }] },
            partitionSize: { type: 'integer', minimum: 10, description: 'On PostgreSQL, events per partition of the log (default 100000): old events leave a whole partition at a time' },
          },
        },
        stream: {
          type: 'object',
          additionalProperties: false,
          description: 'The Server-Sent Events stream at GET /events/stream',
          properties: {
            heartbeat: { ...durationMsSchema(true), description: 'How often a comment line is sent on an idle stream (default 15s)' },
            maxClients: { type: 'integer', minimum: 1, description: 'Streams open at once per node (default 10000); more get 503' },
            credentialCheck: {
              ...durationMsSchema(true),
              description: 'How often each node re-checks the credentials its open streams were opened with (default 5s): a stream whose API key was revoked, whose access token was revoked or whose OAuth client was deleted, on any node or by the CLI, ends',
            },
            bufferSize: {
              description: 'Data queued for one client that does not read; past it the client is dropped and resumes with Last-Event-ID (default 1mb)',
              oneOf: [{ type: 'integer', minimum: 1024 }, { type: 'string', pattern: '^\\d+(\\.\\d+)?\\s*(b|kb|mb|gb)?$' }],
            },
          },
        },
      },
    },
    auth: {
      type: 'object',
      additionalProperties: false,
      properties: {
        issuer: { type: 'string', format: 'uri' },
        audience: { type: 'string', minLength: 1 },
        tokenTtl: { ...duration, description: 'Lifetime of access tokens from POST /oauth/token, e.g. 15m' },
        cacheTtl: { ...duration, description: 'How long a verified token is cached, e.g. 10s' },
        signingAlgorithm: { enum: ['EdDSA', 'ES256'] },
        signingKeyLifetime: { ...duration, description: 'Age after which the signing key is rotated, e.g. 30d' },
        issuers: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['issuer', 'jwksUri', 'audience'],
            properties: {
              issuer: { type: 'string', minLength: 1 },
              jwksUri: { type: 'string', format: 'uri', pattern: '^https?://' },
              audience: { oneOf: [{ type: 'string', minLength: 1 }, { type: 'array', items: { type: 'string', minLength: 1 }, minItems: 1 }] },
              requireAtJwt: { type: 'boolean' },
              jwksCooldown: duration,
            },
          },
        },
        rateLimit: {
          oneOf: [
            { const: false },
            { ...rateLimit, properties: { ...rateLimit.properties, resources: { type: 'object', propertyNames: { pattern: name }, additionalProperties: rateLimit } } },
          ],
        },
        rateLimitStore: {
          description: 'Where rate limits (auth.rateLimit and the outbound endpoints\' rateLimit) are counted: memory (each node on its own), database (a table of the shared PostgreSQL database, so every node shares one count) or redis (the server at redis.url). Default: database on PostgreSQL, memory on SQLite',
          enum: ['memory', 'database', 'redis'],
        },
        rateLimitFailOpen: {
          description: 'When the shared rate-limit store cannot be reached: true (default) lets requests through, counted on each node meanwhile; false refuses them with 503. Either way a warning is logged (at most once a minute while it lasts)',
          type: 'boolean',
        },
      },
    },
    redis: {
      type: 'object',
      additionalProperties: false,
      required: ['url'],
      description: 'A Redis server every node reaches, for rate-limit counters (auth.rateLimitStore: redis)',
      properties: {
        url: { type: 'string', pattern: '^rediss?://', description: 'redis://[user:password@]host:port[/db], or rediss:// for TLS' },
        keyPrefix: { type: 'string', maxLength: 100, description: 'Put before every key Restwell writes, so deployments sharing one server keep apart (default restwell:)' },
      },
    },
  },
} as const;
