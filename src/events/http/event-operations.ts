import { logPageParameters, logPageResponse } from '../../http/openapi/log-page-doc.js';
import type { OperationDoc } from '../../http/openapi/operation-doc.js';
import { representations } from '../../http/openapi/representations.js';
import { linksSchema, type SchemaContext } from '../../http/openapi/schemas.js';

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

/** Documentation of the event log's routes, by operationId: the list (`/events`) and one event (`/events/{id}`). */
export const EVENT_OPERATIONS: Record<string, (ctx: SchemaContext) => OperationDoc> = {
  listEvents: (ctx) => ({
    description:
      'The event log, oldest first: one event per create, replace, patch and delete. The `next` link is always present: ' +
      'a reader stores it and polls it to follow new events without missing or repeating one.',
    parameters: [
      {
        name: 'type',
        in: 'query',
        description: `Only events of these types (comma-separated, or repeated): ${eventTypes(ctx) || 'none yet'}.`,
        style: 'form',
        explode: false,
        schema: { type: 'array', items: { type: 'string', minLength: 1 } },
      },
      ...logPageParameters('Events'),
    ],
    responses: {
      '200': logPageResponse(ctx, 'A page of events', 'events', eventSchema(ctx)),
    },
    problems: ['invalid-query', 'unavailable'],
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
