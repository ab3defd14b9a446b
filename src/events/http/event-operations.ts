import type { Json } from '../../http/openapi/components.js';
import { LOG_PAGING_RULE, logPageParameters, logPageResponse } from '../../http/openapi/log-page-doc.js';
import type { OperationDoc } from '../../http/openapi/operation-doc.js';
import { representations } from '../../http/openapi/representations.js';
import { linksSchema, type SchemaContext } from '../../http/openapi/schemas.js';
import { recordIdParameter, streamSelectionParameters } from './selection-doc.js';

/** One entry of the event log, as `GET /events` and `GET /events/{id}` serve it. */
function eventSchema(ctx: SchemaContext): { $ref: string } {
  return ctx.components.schema('event', 'Event', () => ({
    type: 'object',
    description: 'One change to one record, written in the same transaction as the change.',
    required: ['id', 'type', 'resource', 'recordId', 'createdAt', 'data', '_links'],
    properties: {
      id: { type: 'string', description: 'Stable public id of the event' },
      type: { type: 'string', description: '`<resource>.created`, `<resource>.updated` or `<resource>.deleted`' },
      resource: { type: 'string', description: 'The collection the record belongs to' },
      recordId: { type: ['integer', 'string', 'null'], description: 'The id of the record that changed' },
      createdAt: { type: 'string', format: 'date-time' },
      data: { type: 'object', description: 'The record after the change (for a delete: the last representation before it)' },
      _links: linksSchema(ctx, ['self', 'record'], ['self'], 'self, and the record the event is about'),
    },
  }));
}

function eventTypes(ctx: SchemaContext): string {
  return [...ctx.resources.keys()].flatMap((r) => ['created', 'updated', 'deleted'].map((a) => `\`${r}.${a}\``)).join(', ');
}

/** The `resource` values an event can have: the collections, and each webhook source's inbox. */
function eventResourceSchema(ctx: SchemaContext): Json {
  const sources = Object.keys(ctx.config.webhooks?.sources ?? {}).map((s) => `webhooks/${s}/events`);
  const values = [...ctx.resources.keys(), ...sources];
  return values.length ? { type: 'string', enum: values } : { type: 'string', minLength: 1 };
}

/** Documentation of the event log's routes, by operationId: the list (`/events`), the live stream (`/events/stream`) and one event (`/events/{id}`). */
export const EVENT_OPERATIONS: Record<string, (ctx: SchemaContext) => OperationDoc> = {
  listEvents: (ctx) => ({
    description:
      `The event log, oldest first (\`order=newest\`: newest first): one event per create, replace, patch and delete, and one per ` +
      `webhook received. ${LOG_PAGING_RULE} On a newest-first page \`next\` goes back in time, and \`poll\` is the first page, where newer events appear. ` +
      'To follow events live instead, open `GET /events/stream`.',
    parameters: [
      {
        name: 'type',
        in: 'query',
        description: `Only events of these types (comma-separated, or repeated): ${eventTypes(ctx) || 'none yet'}.`,
        style: 'form',
        explode: false,
        schema: { type: 'array', items: { type: 'string', minLength: 1 } },
      },
      {
        name: 'resource',
        in: 'query',
        description: 'Only events about records of these collections (comma-separated, or repeated); a webhook source\'s events have the resource `webhooks/<source>/events`.',
        style: 'form',
        explode: false,
        schema: { type: 'array', items: eventResourceSchema(ctx) },
      },
      {
        name: 'order',
        in: 'query',
        description: '`oldest` (the default) reads the log in the order it was written; `newest` reads it backwards, newest first.',
        schema: { type: 'string', enum: ['oldest', 'newest'], default: 'oldest' },
      },
      recordIdParameter(),
      ...logPageParameters('Events'),
    ],
    responses: {
      '200': logPageResponse(ctx, 'A page of events', 'events', eventSchema(ctx)),
    },
    problems: ['invalid-query', 'events-expired', 'unavailable'],
    tag: 'events',
  }),
  streamEvents: (ctx) => ({
    description:
      'The event log, live, as Server-Sent Events (`text/event-stream`): the events `GET /events` would show the caller (the same read rules, ' +
      'owner rules included), each as it is written. The stream opens with `retry: <ms>`; each event is an `id:` line (its `evt_…` id) and one ' +
      '`data:` line holding the event exactly as `GET /events/{id}` serves it. There is no `event:` field, so `EventSource.onmessage` sees every ' +
      'event. A comment line (`: keep-alive`) comes every `events.stream.heartbeat`. Without `Last-Event-ID` the stream starts at the end of ' +
      'the log; with it, it first sends every event after that one, then goes live, with no gap and no repeat (EventSource sends the header ' +
      'itself when it reconnects). A client that stops reading is disconnected once `events.stream.bufferSize` bytes wait for it; it resumes ' +
      'with `Last-Event-ID` and loses nothing. The stream also ends when the server shuts down, and when the credential it was opened with ' +
      'expires or is revoked (an API key deleted, an access token revoked, its OAuth client deleted): at once on the node that revoked it, on ' +
      'other nodes (or after a revocation by the CLI) within `events.stream.credentialCheck`; reconnecting with that credential is then a 401.',
    parameters: [
      {
        name: 'Last-Event-ID',
        in: 'header',
        description: 'Resume after this event: the `id:` of the last event received. Wins over the `lastEventId` query parameter.',
        schema: { type: 'string', pattern: '^evt_[0-9a-f]{32}$' },
      },
      {
        name: 'lastEventId',
        in: 'query',
        description: 'The same as the Last-Event-ID header, for clients that cannot set headers (a browser EventSource on its first connection).',
        schema: { type: 'string', pattern: '^evt_[0-9a-f]{32}$' },
      },
      {
        name: 'type',
        in: 'query',
        description: `Only events of these types (comma-separated, or repeated), as for \`GET /events\`: ${eventTypes(ctx) || 'none yet'}.`,
        style: 'form',
        explode: false,
        schema: { type: 'array', items: { type: 'string', minLength: 1 } },
      },
      ...streamSelectionParameters(ctx),
    ],
    responses: {
      '200': {
        description: 'The stream: `retry:`, then per event `id: evt_…` and `data: <event JSON>`, and `: keep-alive` comments; it stays open',
        headers: {
          'Cache-Control': { description: 'Always `no-store`', schema: { type: 'string', const: 'no-store' } },
          'X-Accel-Buffering': { description: 'Always `no`, so nginx passes each event on at once', schema: { type: 'string', const: 'no' } },
        },
        content: { 'text/event-stream': { schema: { type: 'string', description: 'Server-Sent Events; each `data:` is one Event', 'x-event-schema': eventSchema(ctx) } } },
      },
    },
    problems: ['invalid-query', 'invalid-last-event-id', 'events-expired', 'not-acceptable', 'too-many-streams', 'unavailable'],
    tag: 'events',
  }),
  getEvent: (ctx) => ({
    description: 'One event of the log, by id.',
    pathParameters: { id: { type: 'string', minLength: 1, description: 'The id of an event, as in its self link' } },
    responses: { '200': { description: 'The event', content: representations(eventSchema(ctx)) } },
    problems: ['not-found', 'unavailable'],
    tag: 'events',
  }),
};
