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

/**
 * A name per event type for operation ids and component keys: `characters.created` → `CharactersCreated`.
 * Distinct types can fold to one name (`a-b.created`, `a_b.created`): later ones get a number.
 */
export function eventKeys(catalog: readonly EventTypeEntry[]): Map<string, string> {
  const keys = new Map<string, string>();
  const used = new Set<string>();
  for (const { type } of catalog) {
    const base = pascal(type.replace(/[./]/g, '-'));
    let key = base;
    for (let i = 2; used.has(key); i++) key = `${base}${i}`;
    used.add(key);
    keys.set(type, key);
  }
  return keys;
}

/** A `$ref` to the schema of an event type (`CharactersCreatedEvent`), added to the document's components once. */
function eventSchemaRef(ctx: SchemaContext, entry: EventTypeEntry, key: string): { $ref: string } {
  return ctx.components.schema(`event-type:${entry.type}`, `${key}Event`, () => ({ ...entry.schema, examples: [entry.example] }));
}

/**
 * The document's `webhooks`: per event type, the POST a subscribed endpoint receives (its body, the
 * event as `GET /events/{id}` serves it, and the signature headers), and what its answer means.
 * Generated clients type the payloads from it (`webhooks["characters.created"]`, or the schema component).
 */
export function webhooksSection(ctx: SchemaContext, catalog: EventTypeEntry[]): Record<string, Json> {
  const keys = eventKeys(catalog);
  return Object.fromEntries(catalog.map((entry) => [entry.type, {
    post: {
      operationId: `on${keys.get(entry.type)!}`,
      summary: `${entry.type} delivered to a subscribed endpoint`,
      description: [
        entry.description,
        ...(entry.subscribable ? [`Sent to every enabled endpoint whose \`eventTypes\` match \`${entry.type}\`.`] : []),
        'The body is the event as `GET /events/{id}` serves it (links absolute when `server.publicUrl` is set), with `Content-Type: application/json`,',
        'the endpoint\'s own `headers`, and the Standard Webhooks signature headers.',
      ].join(' '),
      tags: ['webhook-endpoints'],
      parameters: DELIVERY_HEADERS,
      requestBody: { required: true, content: { 'application/json': { schema: eventSchemaRef(ctx, entry, keys.get(entry.type)!), example: entry.example } } },
      responses: {
        '200': { description: 'Received: any 2xx within `webhooks.outbound.timeout` ends the delivery (the body is ignored)' },
        '410': { description: 'Gone: no retry, and the endpoint is disabled' },
        default: { description: 'Anything else, or no answer in time, is retried on `webhooks.outbound.retrySchedule` (redirects are not followed)' },
      },
      security: [],
    },
  }]));
}
