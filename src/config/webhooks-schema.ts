import { durationSchema } from './sizes.js';

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
