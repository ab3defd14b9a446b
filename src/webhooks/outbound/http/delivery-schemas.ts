import type { Json } from '../../../http/openapi/components.js';
import { linksSchema, type SchemaContext } from '../../../http/openapi/schemas.js';

/** `WebhookEndpointDelivery`: one event to send to one endpoint, and where it stands. */
export function deliverySchema(ctx: SchemaContext): { $ref: string } {
  return ctx.components.schema('outbound-delivery', 'WebhookEndpointDelivery', () => {
    const properties: Record<string, Json> = {
      id: { type: 'string', description: 'Public id (`msg_…`)' },
      endpointId: { type: 'string' },
      eventId: { type: 'string', description: 'The event sent (`evt_…`); it is also the `webhook-id` header of every attempt' },
      eventType: { type: 'string' },
      status: { type: 'string', enum: ['pending', 'delivered', 'failed'], description: 'pending: to be sent or retried; delivered: a 2xx came back; failed: given up on after the last retry' },
      attempts: { type: 'integer', minimum: 0 },
      nextAttemptAt: { type: ['string', 'null'], format: 'date-time' },
      lastAttemptAt: { type: ['string', 'null'], format: 'date-time' },
      lastStatusCode: { type: ['integer', 'null'] },
      lastError: { type: ['string', 'null'] },
      createdAt: { type: 'string', format: 'date-time' },
      deliveredAt: { type: ['string', 'null'], format: 'date-time' },
      _links: linksSchema(ctx, ['self', 'collection', 'endpoint', 'event', 'attempts'], ['self', 'collection', 'endpoint', 'event', 'attempts'], 'self, the deliveries, the endpoint, the event and the attempts'),
    };
    return { type: 'object', description: 'A delivery of one event to one endpoint.', required: Object.keys(properties), properties };
  });
}

/** `WebhookEndpointAttempt`: one HTTP request made for a delivery. */
export function attemptSchema(ctx: SchemaContext): { $ref: string } {
  return ctx.components.schema('outbound-attempt', 'WebhookEndpointAttempt', () => {
    const properties: Record<string, Json> = {
      number: { type: 'integer', minimum: 1 },
      trigger: { type: 'string', enum: ['automatic', 'manual'], description: 'Made by the dispatcher, or by a user (POST …/attempts)' },
      startedAt: { type: 'string', format: 'date-time' },
      statusCode: { type: ['integer', 'null'], description: 'null when no response came (refused, timed out, blocked by the SSRF guard)' },
      latencyMs: { type: 'integer', minimum: 0 },
      responseExcerpt: { type: ['string', 'null'], description: 'The start of the response body (at most 1 KiB)' },
      error: { type: ['string', 'null'] },
      node: { type: 'string', description: 'The server node that made it' },
      _links: linksSchema(ctx, ['self', 'delivery'], ['self', 'delivery'], 'self and the delivery'),
    };
    return { type: 'object', description: 'One attempt at a delivery.', required: Object.keys(properties), properties };
  });
}
