import type { Json } from '../../../http/openapi/components.js';
import { linksSchema, type SchemaContext } from '../../../http/openapi/schemas.js';
import { MAX_CUSTOM_HEADERS, MAX_HEADER_VALUE } from './endpoint-headers.js';
import { MAX_DESCRIPTION, MAX_RATE_LIMIT } from './endpoint-input.js';
import { eventTypePatterns, MAX_EVENT_TYPE_PATTERNS } from './event-type-patterns.js';
import { endpointFilterSchema } from './endpoint-filter.js';

/**
 * `whsec_` and the standard base64 of 24 to 64 bytes, as endpointSecretError checks: 32 to 88
 * characters, but not 32 with padding (22 or 23 bytes) nor 88 without `==` (65 or 66 bytes).
 */
export const SECRET_SCHEMA = {
  type: 'string',
  pattern: '^whsec_(?!(?:[A-Za-z0-9+/]{4}){7}[A-Za-z0-9+/]{2,3}=+$)(?!(?:[A-Za-z0-9+/]{4}){21}(?:[A-Za-z0-9+/]{4}|[A-Za-z0-9+/]{3}=)$)(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$',
  minLength: 38,
  maxLength: 94,
};

const window = { type: 'string', pattern: '^\\d+\\s*(ms|s|m|h|d)$', description: 'A duration from 1s to 1d: `1s`, `10s`, `1m`, `1h`', example: '1s' };

/** The members a user sets, as the API shows and takes them. */
function writable(ctx: SchemaContext): Record<string, Json> {
  return {
    url: { type: 'string', format: 'uri', maxLength: 2048, description: 'Where deliveries are POSTed: http or https, no credentials; addresses of private networks, loopback and cloud metadata are refused unless webhooks.outbound.allowNetworks lets them through' },
    description: { type: ['string', 'null'], maxLength: MAX_DESCRIPTION },
    eventTypes: {
      type: ['array', 'null'],
      minItems: 1,
      maxItems: MAX_EVENT_TYPE_PATTERNS,
      items: { type: 'string', enum: eventTypePatterns(ctx), description: 'An event type (`characters.created`), a prefix ending in `.*` (`characters.*`, `webhook.*`), or `*`' },
      description: 'The events it receives; null (or left out) means every event. Each pattern must match an event type of this API.',
    },
    enabled: { type: 'boolean', description: 'A disabled endpoint is paused (nothing is sent) and resumes where it stopped when enabled again; default true' },
    headers: {
      type: 'object',
      maxProperties: MAX_CUSTOM_HEADERS,
      additionalProperties: { type: 'string', maxLength: MAX_HEADER_VALUE },
      description: 'Extra request headers sent with every delivery (e.g. `authorization`); `webhook-*`, `host`, `content-type` and other headers the sender sets are refused. Values that carry a credential (`authorization`, `x-api-key`, `…-token`, `Bearer …`) are encrypted at rest and read back as `[redacted]`; sending `[redacted]` back keeps the stored value',
    },
    rateLimit: rateLimitSchema(ctx),
    filter: endpointFilterSchema(ctx),
  };
}

function rateLimitSchema(ctx: SchemaContext): Json {
  const ref = ctx.components.schema('webhook-rate-limit', 'WebhookRateLimit', () => ({
    type: 'object',
    description: 'At most `limit` deliveries per `window` to this endpoint, per node; the rest wait their turn',
    required: ['limit', 'window'],
    additionalProperties: false,
    properties: { limit: { type: 'integer', minimum: 1, maximum: MAX_RATE_LIMIT }, window },
  }));
  return { oneOf: [ref, { type: 'null' }], description: 'null: no limit' };
}

/** A signing secret as shown: a hint, never the secret. */
function secretView(): Json {
  return {
    type: 'object',
    required: ['hint', 'createdAt', 'expiresAt'],
    properties: {
      hint: { type: 'string', description: 'The first characters of the secret (`whsec_AbCd…`)' },
      createdAt: { type: 'string', format: 'date-time' },
      expiresAt: { type: ['string', 'null'], format: 'date-time', description: 'When a rotated-out secret stops signing; null for the current one' },
    },
  };
}

/** `WebhookEndpoint`: an endpoint as GET shows it. */
export function endpointSchema(ctx: SchemaContext): { $ref: string } {
  return ctx.components.schema('webhook-endpoint', 'WebhookEndpoint', () => {
    const properties: Record<string, Json> = {
      id: { type: 'string', readOnly: true, description: 'Public id (`ep_…`)' },
      ...writable(ctx),
      disabledReason: { type: ['string', 'null'], readOnly: true, description: 'Why the dispatcher disabled it (a 410 Gone, or failing for too long); null otherwise' },
      secrets: {
        type: 'array',
        readOnly: true,
        items: secretView(),
        description: 'The secrets deliveries are signed with, newest first (two during a rotation\'s overlap); empty when the server\'s secret key cannot open them, until a rotation',
      },
      failingSince: { type: ['string', 'null'], format: 'date-time', readOnly: true, description: 'When deliveries started failing without a success since; null while healthy' },
      version: { type: 'integer', minimum: 1, readOnly: true, description: 'Grows on every change a user makes (the ETag)' },
      createdAt: { type: 'string', format: 'date-time', readOnly: true },
      updatedAt: { type: 'string', format: 'date-time', readOnly: true },
      owner: { type: ['string', 'null'], readOnly: true, description: 'The subject that created it. Created under `webhooks:own` alone, it receives only the events its owner may read, and only its owner (or a `webhooks:read`/`webhooks:write` caller) sees it; null when made by no token' },
      _links: linksSchema(ctx, ['self', 'collection', 'deliveries', 'secrets', 'replays'], ['self', 'collection', 'deliveries', 'secrets', 'replays'], 'self, the collection, its deliveries, secret rotation and replays'),
    };
    return { type: 'object', description: 'A subscriber of outbound webhooks: where to send which events, and how.', required: Object.keys(properties), properties };
  });
}

/** The endpoint with its secret in clear, as create and rotation answer (the only times it is shown). */
export function endpointWithSecretSchema(ctx: SchemaContext): Json {
  return {
    allOf: [
      endpointSchema(ctx),
      { type: 'object', required: ['secret'], properties: { secret: { ...SECRET_SCHEMA, description: 'The signing secret (`whsec_…`): shown only in this response; verify deliveries with it (Standard Webhooks)' } } },
    ],
  };
}

/** What `POST /webhook-endpoints` takes. */
export function createInputSchema(ctx: SchemaContext): { $ref: string } {
  return ctx.components.schema('webhook-endpoint-input', 'WebhookEndpointInput', () => ({
    type: 'object',
    description: 'A new endpoint: only `url` is required.',
    required: ['url'],
    additionalProperties: false,
    properties: {
      ...writable(ctx),
      secret: { ...SECRET_SCHEMA, description: 'Its signing secret: `whsec_` + base64 of 24 to 64 bytes; generated when left out' },
    },
  }));
}

/** What PUT takes: the writable members; the read-only ones of a GET body may be sent back and are ignored. */
export function replaceInputSchema(ctx: SchemaContext): { $ref: string } {
  return ctx.components.schema('webhook-endpoint-replacement', 'WebhookEndpointReplacement', () => {
    const ignored = Object.fromEntries(['id', 'secrets', 'disabledReason', 'failingSince', 'version', 'createdAt', 'updatedAt', 'owner', '_links', '_embedded'].map((k) => [k, { readOnly: true, description: 'Ignored (read-only)' }]));
    return {
      type: 'object',
      description: 'The whole endpoint: members left out get their defaults. The secret changes only by rotation.',
      required: ['url'],
      additionalProperties: false,
      properties: { ...writable(ctx), ...ignored },
    };
  });
}

/** A JSON Merge Patch of an endpoint. */
export function mergePatchSchema(ctx: SchemaContext): { $ref: string } {
  return ctx.components.schema('webhook-endpoint-merge-patch', 'WebhookEndpointMergePatch', () => ({
    type: 'object',
    description: 'A JSON Merge Patch (RFC 7396): members to change; null resets one (eventTypes to every event, headers to none, rateLimit to none). The result is checked like a PUT body.',
    properties: { ...writable(ctx), headers: { type: ['object', 'null'], additionalProperties: { type: ['string', 'null'] }, description: 'Headers to set; a null value removes one, null removes them all' } },
  }));
}
