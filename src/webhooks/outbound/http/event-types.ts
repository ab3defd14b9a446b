import type { FastifyReply, FastifyRequest } from 'fastify';
import { TEST_EVENT_TYPE } from '../../../core/event-catalog.js';
import { sendRepresentation } from '../../../http/respond.js';
import { ENDPOINTS } from './endpoint-view.js';
import { eventTypePatterns, knownEventTypes } from './event-type-patterns.js';
import type { OutboundContext } from './outbound-context.js';

/** The path of the catalog of event types (a fixed segment: endpoint ids all start with `ep_`). */
export const EVENT_TYPES_PATH = `${ENDPOINTS}/event-types`;

/**
 * `GET /webhook-endpoints/event-types`: what an endpoint may subscribe to, from the event catalog
 * (the one `GET /event-types` serves with schemas): every event type the API appends to its log,
 * the patterns `eventTypes` accepts, and the type of the test message (sent only by
 * `POST …/test`, never subscribed to).
 */
export function listEventTypes(ctx: OutboundContext) {
  return async (request: FastifyRequest, reply: FastifyReply) =>
    sendRepresentation(request, reply, 200, {
      eventTypes: knownEventTypes(ctx),
      patterns: eventTypePatterns(ctx),
      testEventType: TEST_EVENT_TYPE,
      _links: { self: { href: EVENT_TYPES_PATH }, collection: { href: ENDPOINTS }, describedby: { href: '/event-types', title: 'Every event type with the JSON Schema of its payload and an example' } },
    });
}
