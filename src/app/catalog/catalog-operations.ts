import type { Json } from '../../http/openapi/components.js';
import { header, headerParameter } from '../../http/openapi/headers.js';
import type { OperationDoc } from '../../http/openapi/operation-doc.js';
import { representations } from '../../http/openapi/representations.js';
import { linksSchema, type SchemaContext } from '../../http/openapi/schemas.js';

const notModified = (ctx: SchemaContext) => ({ description: 'Not Modified: your copy is current', headers: { ETag: header(ctx, 'etag') } });

/** One entry of `GET /event-types`. */
const ENTRY: Json = {
  type: 'object',
  required: ['type', 'description', 'resource', 'subscribable', 'schema', 'example'],
  properties: {
    type: { type: 'string', description: '`<collection>.created|updated|deleted`, `webhook.<source>.received`, or `webhook.test`' },
    description: { type: 'string' },
    resource: { type: 'string', description: 'The `resource` member its events carry' },
    subscribable: { type: 'boolean', description: 'True for the types of the event log (what `GET /events`, the stream and endpoint `eventTypes` know); false for `webhook.test`' },
    schema: { type: 'object', description: 'The JSON Schema (2020-12) of the event as delivered: the envelope (`id`, `type`, `resource`, `recordId`, `createdAt`, `_links`) and its `data`' },
    example: { type: 'object', description: 'An example event of this type' },
  },
};

/** Documentation of the event catalog's routes, by operationId, under the `api` tag. */
export const CATALOG_OPERATIONS: Record<string, (ctx: SchemaContext) => OperationDoc> = {
  getEventTypes: (ctx) => ({
    description:
      'Every event type this API emits, generated from the configuration: `<collection>.created`, `.updated` and `.deleted` per collection, ' +
      '`webhook.<source>.received` per webhook source with the emit action, and `webhook.test`. Each has the JSON Schema of the event exactly as ' +
      '`GET /events/{id}`, the stream and webhook deliveries carry it, and an example. Endpoint `eventTypes` are checked against it.',
    parameters: [headerParameter(ctx, 'if-none-match')],
    responses: {
      '200': {
        description: 'The event types',
        headers: { ETag: header(ctx, 'etag') },
        content: representations({
          type: 'object',
          required: ['eventTypes', '_links'],
          properties: { eventTypes: { type: 'array', items: ENTRY }, _links: linksSchema(ctx, ['self', 'service-desc', 'asyncapi', 'events', 'subscriptions'], ['self'], 'self, and the documents that describe the same events') },
        }),
      },
      '304': notModified(ctx),
    },
    problems: [],
    tag: 'api',
  }),
  getAsyncApi: (ctx) => ({
    description: 'The events this API sends, in AsyncAPI 3.0: the live stream (`GET /events/stream`) and the webhooks POSTed to endpoints, one message per event type.',
    parameters: [headerParameter(ctx, 'if-none-match')],
    responses: {
      '200': { description: 'The AsyncAPI 3.0 document', headers: { ETag: header(ctx, 'etag') }, content: { 'application/json': { schema: { type: 'object', description: 'An AsyncAPI 3.0 document' } } } },
      '304': notModified(ctx),
    },
    problems: [],
    tag: 'api',
  }),
};
