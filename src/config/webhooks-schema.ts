import { durationMsSchema, durationSchema, retentionSchema } from './sizes.js';

const name = '^[a-z][a-zA-Z0-9_-]{0,62}$';
const size = { oneOf: [{ type: 'integer', minimum: 1 }, { type: 'string', pattern: '^\\d+(\\.\\d+)?\\s*(b|kb|mb|gb)?$' }] };

const verify = {
  description: 'How deliveries are authenticated; which keys apply depends on the provider. `none` accepts unsigned deliveries.',
  oneOf: [
    { const: 'none' },
    {
      type: 'object',
      additionalProperties: false,
      properties: {
        secret: { type: 'string', description: 'Standard Webhooks whsec_…, GitHub or Stripe secret, Mailgun signing key, Vonage signature secret, or a shared header token' },
        header: { type: 'string', minLength: 1, description: 'Header carrying a shared token (with secret)' },
        username: { type: 'string' },
        password: { type: 'string' },
        authToken: { type: 'string', description: 'Twilio auth token' },
        tolerance: { type: 'number', exclusiveMinimum: 0, description: 'Allowed clock difference in seconds (default 300)' },
        publicUrl: { type: 'string', format: 'uri', description: 'The URL the provider signs, when behind a proxy' },
        algorithm: { enum: ['md5hash', 'md5', 'sha1', 'sha256', 'sha512'] },
      },
    },
  ],
};

const action = {
  oneOf: [
    {
      type: 'object',
      additionalProperties: false,
      required: ['store'],
      properties: {
        store: { type: 'string', pattern: name, description: 'Resource that gets a record per delivery' },
        map: { type: 'object', additionalProperties: { type: 'string', minLength: 1 }, description: 'record field → dotted path in the normalized message' },
      },
    },
    {
      type: 'object',
      additionalProperties: false,
      required: ['reply'],
      properties: {
        reply: {
          type: 'object',
          additionalProperties: false,
          required: ['lookup', 'by', 'template'],
          properties: {
            lookup: { type: 'string', pattern: name },
            by: { type: 'string', minLength: 1 },
            template: { type: 'string', minLength: 1, description: 'e.g. "{name}: {number}"' },
            fallback: { type: 'string', minLength: 1, description: 'Reply when nothing matches; {text} is the message, {example} a known value' },
          },
        },
      },
    },
    { type: 'object', additionalProperties: false, required: ['emit'], properties: { emit: { const: true } } },
  ],
};

/**
 * The `webhooks` section of the config schema. `provider` is only checked for its shape here: the
 * webhook feature knows its providers and refuses an unknown one, listing the known ones.
 */
export const webhooksSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    workerDelayMs: { type: 'integer', minimum: 0, description: 'Delay before the asynchronous actions of a delivery first run' },
    retention: retentionSchema('How long a processed (or failed) inbound delivery is kept in the inbox, e.g. 30d (default), or off; a source may set its own. Deliveries not yet processed are never pruned'),
    outbound: {
      type: 'object',
      additionalProperties: false,
      description: 'Sending webhooks to the endpoints registered at /webhook-endpoints',
      properties: {
        dispatch: { type: 'boolean', description: 'Run the dispatcher on this node (default true); several nodes share the work' },
        retrySchedule: { type: 'array', items: durationMsSchema(), minItems: 0, maxItems: 50, description: 'Wait before each retry, e.g. [5s, 5m, 30m, 2h, 5h, 10h, 10h] (default); ±20% jitter is added' },
        disableAfter: { ...durationSchema(true), description: 'Disable an endpoint whose deliveries have failed without a success for this long (default 5d)' },
        connectTimeout: { ...durationMsSchema(true), description: 'Longest wait to connect to a receiver (default 5s)' },
        timeout: { ...durationMsSchema(true), description: 'Longest wait for a receiver\'s response (default 15s)' },
        concurrency: { type: 'integer', minimum: 1, maximum: 10000, description: 'Deliveries in flight at once per node (default 256)' },
        pollInterval: { ...durationMsSchema(true), description: 'How often to look for due retries and for events other nodes wrote (default 1s)' },
        allowNetworks: {
          type: 'array',
          items: { type: 'string', minLength: 1 },
          description: 'Private addresses or networks deliveries may reach (127.0.0.1, ::1, 10.0.0.0/8): for local development and tests; everything else private is refused',
        },
        dnsServers: { type: 'array', items: { type: 'string', minLength: 1 }, description: 'DNS servers (host or host:port) that resolve endpoint hosts instead of the system resolver' },
        secretKey: { type: 'string', minLength: 32, description: 'Key that encrypts endpoint signing secrets at rest; e.g. ${RESTWELL_SECRET_KEY}' },
        rotationOverlap: { ...durationSchema(), description: 'How long a rotated-out secret keeps signing beside the new one (default 24h)' },
        retention: retentionSchema('How long a finished delivery (delivered, or given up on) and its attempts are kept, e.g. 30d (default), or off; pending deliveries are never pruned'),
      },
    },
    sources: {
      type: 'object',
      propertyNames: { pattern: name },
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        required: ['provider', 'verify'],
        properties: {
          provider: { type: 'string', pattern: '^[a-z][a-z0-9-]*$', description: 'The provider that posts to this source, by name: postmark, twilio, stripe, generic, …' },
          description: { type: 'string' },
          verify,
          actions: { type: 'array', items: action },
          idHeader: { type: 'string', minLength: 1 },
          idPath: { type: 'string', minLength: 1 },
          bodyLimit: size,
          retention: retentionSchema('How long this source\'s processed (or failed) deliveries are kept; default webhooks.retention'),
          rateLimit: {
            type: 'object',
            additionalProperties: false,
            required: ['limit', 'window'],
            properties: { limit: { type: 'integer', minimum: 1 }, window: durationSchema() },
          },
        },
      },
    },
  },
} as const;
