import type { EventTypeEntry } from '../../core/event-catalog.js';
import { pascal, type Json } from '../../http/openapi/components.js';
import type { SchemaContext } from '../../http/openapi/schemas.js';

/** The Standard Webhooks headers every delivery carries, as parameters of the request a subscriber receives. */
export const DELIVERY_HEADERS: Json[] = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: 'The event\'s id (`evt_…`), the same on every attempt: de-duplicate by it',
    schema: { type: 'string', pattern: '^evt_[0-9a-f]{32}$' },
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'When this attempt was signed, in seconds since the Unix epoch: refuse a stale one (Standard Webhooks allows 5 minutes)',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      'Space-separated `v1,<base64>` signatures, one per active secret of the endpoint (two while a rotation overlaps): HMAC-SHA256 with the ' +
      'secret\'s bytes (base64 after `whsec_`) of `<webhook-id>.<webhook-timestamp>.<body>`. Any Standard Webhooks library checks it.',
    schema: { type: 'string', pattern: '^v1,[A-Za-z0-9+/=]+( v1,[A-Za-z0-9+/=]+)*$' },
  },
];

/** The component name of an event type's schema: `characters.created` → `CharactersCreatedEvent`. */
export function eventSchemaName(type: string): string {
  return `${pascal(type.replace(/[./]/g, '-'))}Event`;
}

/** A `$ref` to the schema of an event type, added to the document's components once. */
export function eventSchemaRef(ctx: SchemaContext, entry: EventTypeEntry): { $ref: string } {
  return ctx.components.schema(`event-type:${entry.type}`, eventSchemaName(entry.type), () => ({ ...entry.schema, examples: [entry.example] }));
}

/**
 * The document's `webhooks`: per event type, the POST a subscribed endpoint receives (its body, the
 * event as `GET /events/{id}` serves it, and the signature headers), and what its answer means.
 * Generated clients type the payloads from it (`webhooks["characters.created"]`, or the schema component).
 */
export function webhooksSection(ctx: SchemaContext, catalog: EventTypeEntry[]): Record<string, Json> {
  return Object.fromEntries(catalog.map((entry) => [entry.type, {
    post: {
      operationId: `on${eventSchemaName(entry.type).replace(/Event$/, '')}`,
      summary: `${entry.type} delivered to a subscribed endpoint`,
      description:
        `${entry.description} ${entry.subscribable ? `Sent to every enabled endpoint whose \`eventTypes\` match \`${entry.type}\`.` : ''} ` +
        'The body is the event as `GET /events/{id}` serves it (links absolute when `server.publicUrl` is set), with `Content-Type: application/json`, ' +
        'the endpoint\'s own `headers`, and the Standard Webhooks signature headers.',
      tags: ['webhook-endpoints'],
      parameters: DELIVERY_HEADERS,
      requestBody: { required: true, content: { 'application/json': { schema: eventSchemaRef(ctx, entry), example: entry.example } } },
      responses: {
        '200': { description: 'Received: any 2xx within `webhooks.outbound.timeout` ends the delivery (the body is ignored)' },
        '410': { description: 'Gone: no retry, and the endpoint is disabled' },
        default: { description: 'Anything else, or no answer in time, is retried on `webhooks.outbound.retrySchedule` (redirects are not followed)' },
      },
      security: [],
    },
  }]));
}
