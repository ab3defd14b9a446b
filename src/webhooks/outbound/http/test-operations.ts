import type { Json } from '../../../http/openapi/components.js';
import type { OperationDoc } from '../../../http/openapi/operation-doc.js';
import { representations } from '../../../http/openapi/representations.js';
import { linksSchema, type SchemaContext } from '../../../http/openapi/schemas.js';
import { endpointId, TAG } from './endpoint-operations.js';

const typesBody = (ctx: SchemaContext): Json => ({
  type: 'object',
  required: ['eventTypes', 'patterns', 'testEventType', '_links'],
  properties: {
    eventTypes: { type: 'array', items: { type: 'string' }, description: 'Every event type this API appends to its log: `<collection>.created|updated|deleted` and `webhook.<source>.received`' },
    patterns: { type: 'array', items: { type: 'string' }, description: 'Every value an endpoint\'s `eventTypes` accepts: `*`, each prefix with `.*`, and each event type' },
    testEventType: { type: 'string', const: 'webhook.test', description: 'The type of the message `POST /webhook-endpoints/{id}/test` sends (not subscribable: only that route sends it)' },
    _links: linksSchema(ctx, ['self', 'collection'], ['self', 'collection'], 'self and the endpoints'),
  },
});

const testOutcome = (ctx: SchemaContext): Json => ({
  type: 'object',
  required: ['eventType', 'webhookId', 'sentAt', 'ok', 'statusCode', 'latencyMs', 'responseExcerpt', 'error', '_links'],
  properties: {
    eventType: { type: 'string', const: 'webhook.test' },
    webhookId: { type: 'string', description: 'The `webhook-id` header the message carried (`evt_…`, not in the event log)' },
    sentAt: { type: 'string', format: 'date-time' },
    ok: { type: 'boolean', description: 'A 2xx came back' },
    statusCode: { type: ['integer', 'null'], description: 'null when no response came (refused, timed out, blocked by the SSRF guard)' },
    latencyMs: { type: 'integer', minimum: 0 },
    responseExcerpt: { type: ['string', 'null'], description: 'The start of the response body (at most 1 KiB)' },
    error: { type: ['string', 'null'], description: 'Why it failed, when it did' },
    _links: linksSchema(ctx, ['endpoint', 'deliveries'], ['endpoint', 'deliveries'], 'the endpoint and its deliveries'),
  },
});

/** The event-type catalog and the test message, by operationId. */
export const TEST_OPERATIONS: Record<string, (ctx: SchemaContext) => OperationDoc> = {
  listWebhookEventTypes: (ctx) => ({
    description:
      'What an endpoint may subscribe to, from this server\'s config: every event type the API emits, and every pattern `eventTypes` accepts ' +
      '(a pattern that matches none of them is refused with 422, so a typo never subscribes to nothing).',
    responses: { '200': { description: 'The event types and patterns', content: representations(typesBody(ctx)) } },
    problems: ['unavailable'],
    tag: TAG,
  }),
  sendWebhookEndpointTest: (ctx) => ({
    description:
      'Sends a `webhook.test` message to the endpoint now (enabled or not), exactly as a delivery is sent: to its URL, with its credential headers, ' +
      'signed with its active secrets (Standard Webhooks), through the SSRF guard. Answers 200 with what came back, whatever the receiver answered: ' +
      'its status code, latency and the start of its body, or why no answer came. The body is shaped as every delivery\'s (an event), its `data` ' +
      'naming the endpoint. A test message is not an event of the log and is not written to the delivery log. No request body is read.',
    pathParameters: endpointId,
    responses: { '200': { description: 'The outcome of the test send', content: representations(testOutcome(ctx)) } },
    problems: ['not-found', 'precondition-failed', 'unavailable'],
    tag: TAG,
  }),
};
