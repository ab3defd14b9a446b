import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from './context.js';
import type { Link } from '../http/hal.js';
import { sendRepresentation } from '../http/respond.js';

/** `GET /`: where a client (or a person) starts: a link to every collection and to the docs. */
export function apiRoot(ctx: AppContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const links: Record<string, Link> = { self: { href: '/' } };
    for (const r of ctx.resources.values()) links[r.name] = { href: `/${r.name}`, title: r.description ?? r.name };
    links.events = { href: '/events', title: 'The event log: every change, oldest first' };
    links['webhook-endpoints'] = { href: '/webhook-endpoints', title: 'Outbound webhooks: the URLs events are sent to, and what was sent' };
    links['service-desc'] = { href: '/openapi.json', title: 'This API in OpenAPI 3.1' };
    links['event-types'] = { href: '/event-types', title: 'Every event type, with the JSON Schema of its payload and an example' };
    // `asyncapi` may be a collection's name (unlike event-types, it is not reserved): the collection's link wins.
    links.asyncapi ??= { href: '/asyncapi.json', title: 'The event stream and the webhooks in AsyncAPI 3.0' };
    links.console = { href: '/_/', title: 'The web console: browse and edit records, inspect webhooks and events, manage credentials' };
    links['service-doc'] = { href: '/docs', title: 'API documentation' };
    links['problem-types'] = { href: '/problems/{code}', templated: true, title: 'Documentation of every error type' };
    return sendRepresentation(request, reply, 200, { name: 'Restwell', _links: links });
  };
}
