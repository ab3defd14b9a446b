import type { FastifyReply, FastifyRequest } from 'fastify';
import { checkPostPreconditions } from '../../../http/conditional.js';
import { BadRequestError, DomainError, NotFoundError } from '../../../core/errors.js';
import { parseLogPage, sendLogPage } from '../../../http/log-page.js';
import { sendRepresentation } from '../../../http/respond.js';
import type { OutboundDelivery, OutboundStatus } from '../../../store/outbox.js';
import { endpointOf } from './endpoint-view.js';
import { deliveriesPath, deliveryPath, halAttempt, halDelivery } from './delivery-view.js';
import type { OutboundContext } from './outbound-context.js';

/** The states a delivery can be in, for the `status` filter. */
export const DELIVERY_STATUSES: OutboundStatus[] = ['pending', 'delivered', 'failed'];

function noDelivery(endpointId: string, id: string): NotFoundError {
  return new NotFoundError(`webhook endpoint ${endpointId} has no delivery ${id}; GET ${deliveriesPath(endpointId)} lists them`);
}

/** The delivery the URL names (its endpoint first, so a wrong endpoint id says so). */
async function deliveryOf(ctx: OutboundContext, request: FastifyRequest): Promise<OutboundDelivery> {
  const ep = await endpointOf(ctx, request);
  const { did } = request.params as { did: string };
  const d = await ctx.store.outbox.getDelivery(ep.id, did);
  if (!d) throw noDelivery(ep.id, did);
  return d;
}

/** `GET /webhook-endpoints/{id}/deliveries`: oldest first, by keyset; `status` and `eventType` filter. */
export function listDeliveries(ctx: OutboundContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const ep = await endpointOf(ctx, request);
    const page = parseLogPage(request.query as Record<string, unknown>, ['status', 'eventType'], 'm');
    const { status, eventType } = page.filters;
    if (status !== undefined && !DELIVERY_STATUSES.includes(status as OutboundStatus)) throw new BadRequestError('invalid-query', `status must be one of ${DELIVERY_STATUSES.join(', ')}`);
    if (eventType !== undefined && (!eventType || eventType.length > 200)) throw new BadRequestError('invalid-query', 'eventType must be an event type such as characters.created');
    const rows = await ctx.store.outbox.listDeliveries(ep.id, { after: page.after, limit: page.limit + 1, status: status as OutboundStatus | undefined, eventType });
    return sendLogPage(request, reply, { path: deliveriesPath(ep.id), prefix: 'm', rel: 'deliveries', request: page, rows, embed: halDelivery });
  };
}

/** `GET /webhook-endpoints/{id}/deliveries/{did}`: where one delivery stands. */
export function readDelivery(ctx: OutboundContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => sendRepresentation(request, reply, 200, halDelivery(await deliveryOf(ctx, request)));
}

/** `GET …/deliveries/{did}/attempts`: every attempt, oldest first, with what came back. */
export function listAttempts(ctx: OutboundContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const d = await deliveryOf(ctx, request);
    const attempts = await ctx.store.outbox.listAttempts(d.id);
    const links = { self: { href: `${deliveryPath(d)}/attempts` }, delivery: { href: deliveryPath(d) } };
    return sendRepresentation(request, reply, 200, { _links: links, count: attempts.length, _embedded: { attempts: attempts.map((a) => halAttempt(d, a)) } });
  };
}

/** `GET …/deliveries/{did}/attempts/{n}`: one attempt. */
export function readAttempt(ctx: OutboundContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const d = await deliveryOf(ctx, request);
    const { n } = request.params as { n: string };
    const attempt = /^[1-9]\d{0,8}$/.test(n) ? (await ctx.store.outbox.listAttempts(d.id)).find((a) => a.number === Number(n)) : undefined;
    if (!attempt) throw new NotFoundError(`delivery ${d.id} has no attempt ${n}; it has had ${d.attempts}`);
    return sendRepresentation(request, reply, 200, halAttempt(d, attempt));
  };
}

/**
 * `POST …/deliveries/{did}/attempts`: sends the delivery again now, whatever its status, and
 * answers 201 with the attempt and the delivery after it; 409 while another attempt is under way.
 */
export function createAttempt(ctx: OutboundContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const d = await deliveryOf(ctx, request);
    // The attempts collection exists with its delivery; it has no ETag (RFC 9110 §13.1, as every POST).
    checkPostPreconditions(request.headers, request.url.split('?')[0]);
    const attempt = await ctx.outbound.attempts.attemptNow(d.endpointId, d.id);
    if (attempt === undefined) throw noDelivery(d.endpointId, d.id);
    if (attempt === 'busy') {
      throw new DomainError('webhook-delivery-busy', `an attempt at delivery ${d.id} is under way; GET ${deliveryPath(d)}/attempts to see its outcome, then retry if needed`);
    }
    const after = (await ctx.store.outbox.getDelivery(d.endpointId, d.id)) ?? d;
    const body = { ...halAttempt(d, attempt), delivery: halDelivery(after) };
    return sendRepresentation(request, reply, 201, body, { location: `${deliveryPath(d)}/attempts/${attempt.number}` });
  };
}
