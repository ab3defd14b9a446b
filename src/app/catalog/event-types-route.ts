import type { FastifyReply, FastifyRequest } from 'fastify';
import { notModified, representationEtag } from '../../http/conditional.js';
import { negotiate } from '../../http/negotiate.js';
import { fixedEtag, sendRepresentation } from '../../http/respond.js';
import type { AppContext } from '../context.js';
import { catalogFor } from './catalog-input.js';

/** The path of the event catalog. */
export const EVENT_TYPES = '/event-types';

/**
 * `GET /event-types`: every event type the API emits, each with the JSON Schema of the event as it
 * is delivered (the log, the stream, webhooks) and an example. Built once from the config; a strong
 * ETag lets clients revalidate it (304), and a browser gets it as a page like any representation.
 */
export function serveEventTypes(ctx: AppContext) {
  const body = {
    eventTypes: catalogFor(ctx.config, ctx.resources),
    _links: {
      self: { href: EVENT_TYPES },
      'service-desc': { href: '/openapi.json', title: 'The same events as the OpenAPI document\'s webhooks' },
      asyncapi: { href: '/asyncapi.json', title: 'The event stream and the webhooks in AsyncAPI 3.0' },
      events: { href: '/events', title: 'The event log' },
      subscriptions: { href: '/webhook-endpoints/event-types', title: 'What a webhook endpoint may subscribe to' },
    },
  };
  const json = JSON.stringify(body);
  const etag = fixedEtag(json);
  return async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('cache-control', 'no-cache');
    // Each representation (JSON, HAL, HTML) has its own variant of the tag, as sendRepresentation sends it.
    const status = notModified(request, representationEtag(etag, negotiate(request))) ? 304 : 200;
    return sendRepresentation(request, reply, status, body, { etag }, json);
  };
}
