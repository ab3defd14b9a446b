import { STRING_ID_PATTERN } from '../config/string-id.js';
import { fieldSchema } from './field-schema.js';
import type { ResourceDefinition } from './resource.js';

/** A JSON Schema (2020-12), as plain JSON. */
export type JsonSchema = Record<string, unknown>;

/** What an inbound delivery is normalized into: the `kind` member of a `webhook.<source>.received` event's data. */
export type InboundKind = 'email' | 'sms' | 'event';

/** The shape of every event id (`evt_` and 32 hex digits): the log's, and a test message's. */
export const EVENT_ID_PATTERN = '^evt_[0-9a-f]{32}$';

const LINK: JsonSchema = {
  type: 'object',
  required: ['href'],
  properties: { href: { type: 'string', description: 'A path on this server, or an absolute URL in webhook deliveries when server.publicUrl is set' }, title: { type: 'string' } },
};

/** The schema of a record id of `resource`, as events carry it (`recordId`, `data.id`). */
export function recordIdSchema(resource: ResourceDefinition | undefined): JsonSchema {
  if (resource?.idType === 'string') return { type: 'string', pattern: STRING_ID_PATTERN };
  if (resource?.idType === 'uuid') return { type: 'string', format: 'uuid' };
  return { type: 'integer', minimum: 1 };
}

/**
 * The envelope every event has, in the log, on the stream and in a webhook delivery: the event as
 * `GET /events/{id}` serves it, with its type, resource and data made exact.
 */
export function envelopeSchema(o: { type: string; resource: string; recordId: JsonSchema; data: JsonSchema; description: string; links: string[] }): JsonSchema {
  return {
    title: o.type,
    type: 'object',
    description: o.description,
    required: ['id', 'type', 'resource', 'recordId', 'createdAt', 'data', '_links'],
    properties: {
      id: { type: 'string', pattern: EVENT_ID_PATTERN, description: 'The event\'s id; a webhook delivery carries it as `webhook-id` too (de-duplicate by it)' },
      type: { type: 'string', const: o.type },
      resource: { type: 'string', const: o.resource },
      recordId: { ...o.recordId, description: 'The id of the record the event is about' },
      createdAt: { type: 'string', format: 'date-time', description: 'When the event was written (a test message: when it was sent)' },
      data: o.data,
      _links: { type: 'object', required: o.links, properties: Object.fromEntries(o.links.map((rel) => [rel, LINK])), additionalProperties: LINK },
    },
  };
}

/**
 * A record as its events carry it (`data`): id, every field declared now (an unset optional one is
 * null), version and timestamps. Not closed: an older event may hold a field since removed.
 */
export function recordDataSchema(r: ResourceDefinition, all: ReadonlyMap<string, ResourceDefinition>): JsonSchema {
  const fields = Object.fromEntries(r.fields.map((f) => {
    const { default: _default, ...s } = fieldSchema(f, f.to ? all.get(f.to) : undefined);
    return [f.name, s];
  }));
  return {
    type: 'object',
    description: `The ${r.name} record after the change (for a delete: its last state before it)`,
    required: ['id', ...r.fields.map((f) => f.name), 'version', 'createdAt', 'updatedAt'],
    properties: {
      id: recordIdSchema(r),
      ...fields,
      version: { type: 'integer', minimum: 1, description: 'Starts at 1 and grows by 1 on every change' },
      createdAt: { type: 'string', format: 'date-time' },
      updatedAt: { type: 'string', format: 'date-time' },
    },
  };
}

const EMAIL: JsonSchema = {
  type: 'object',
  description: 'The e-mail, whichever provider delivered it',
  required: ['from', 'to', 'cc', 'subject', 'text', 'html', 'date', 'messageId', 'headers', 'attachments'],
  properties: {
    from: { type: 'string', description: 'As in the From header: `Name <addr>` or `addr`' },
    to: { type: 'array', items: { type: 'string' } },
    cc: { type: 'array', items: { type: 'string' } },
    subject: { type: 'string' },
    text: { type: 'string', description: 'Plain-text body (empty when absent)' },
    html: { type: 'string', description: 'HTML body (empty when absent)' },
    date: { type: ['string', 'null'], description: 'The Date header as ISO 8601, or null' },
    messageId: { type: ['string', 'null'] },
    headers: { type: 'object', additionalProperties: { type: 'string' }, description: 'Lower-cased names; repeated headers joined with a newline' },
    attachments: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'type', 'size', 'content'],
        properties: {
          name: { type: 'string' },
          type: { type: 'string' },
          size: { type: 'integer', minimum: 0 },
          content: { type: 'string', description: 'Base64; empty when the provider gave only a `url`' },
          url: { type: 'string' },
          contentId: { type: 'string' },
        },
      },
    },
  },
};

const SMS: JsonSchema = {
  type: 'object',
  description: 'The text message',
  required: ['from', 'to', 'text', 'messageId'],
  properties: { from: { type: 'string' }, to: { type: 'string' }, text: { type: 'string' }, messageId: { type: ['string', 'null'] } },
};

/** The members of a received delivery's data that depend on its kind: the normalized message, or the payload as sent. */
const CONTENT: Record<InboundKind, [string, JsonSchema]> = {
  email: ['email', EMAIL],
  sms: ['sms', SMS],
  event: ['payload', { description: 'The payload as the sender posted it (JSON, or the fields of a form)' }],
};

/**
 * The data of a `webhook.<source>.received` event: the stored delivery (its id, the provider's
 * event id, when it came) and what it held. A provider of e-mail or SMS may also post other events
 * (a status callback), which arrive as `kind: event` with their payload.
 */
export function receivedDataSchema(source: string, kind: InboundKind): JsonSchema {
  const kinds: InboundKind[] = kind === 'event' ? ['event'] : [kind, 'event'];
  const variants = kinds.map((k) => {
    const [member, schema] = CONTENT[k];
    return {
      type: 'object',
      required: ['id', 'source', 'eventId', 'receivedAt', 'kind', member],
      properties: {
        id: { type: 'string', description: 'The stored delivery (`whd_…`), at `/webhooks/{source}/events/{id}`' },
        source: { type: 'string', const: source },
        eventId: { type: 'string', description: 'The provider\'s id of the delivery (it de-duplicates redeliveries)' },
        receivedAt: { type: 'string', format: 'date-time' },
        kind: { type: 'string', const: k },
        [member]: schema,
      },
    };
  });
  return variants.length === 1 ? { ...variants[0], description: `What the ${source} source received` } : { description: `What the ${source} source received`, oneOf: variants };
}

/** The data of a `webhook.test` message: which endpoint it tests. */
export const TEST_DATA_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'The endpoint the test message was sent to',
  required: ['endpointId', 'message'],
  properties: { endpointId: { type: 'string', description: 'The endpoint\'s id (`ep_…`)' }, message: { type: 'string' } },
};
