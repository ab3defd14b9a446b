import type { FastifyReply, FastifyRequest } from 'fastify';
import { TEST_EVENT_TYPE } from '../../../core/event-catalog.js';
import { checkPostPreconditions } from '../../../http/conditional.js';
import { sendRepresentation } from '../../../http/respond.js';
import { deliveriesPath } from './delivery-view.js';
import { endpointOf, endpointPath } from './endpoint-view.js';
import type { OutboundContext } from './outbound-context.js';

/**
 * The body of a test message: the shape of every delivery (an event as `GET /events/{id}` serves
 * it), about the endpoint itself, with no self link since the log does not hold it.
 */
function testBody(endpointId: string, publicUrl: string | undefined) {
  return (id: string, sentAt: string) => {
    const href = `${publicUrl ?? ''}${endpointPath(endpointId)}`;
    const data = { endpointId, message: 'A test message from Restwell: this endpoint is reachable and the signature can be checked.' };
    return JSON.stringify({ id, type: TEST_EVENT_TYPE, resource: 'webhook-endpoints', recordId: endpointId, createdAt: sentAt, data, _links: { record: { href } } });
  };
}

/**
 * `POST /webhook-endpoints/{id}/test`: sends a signed `webhook.test` message to the endpoint now,
 * enabled or not, the way deliveries are sent, and answers 200 with what came back (a receiver's
 * failure is an outcome, not an error of this request). It is not written to the delivery log.
 */
export function sendTestMessage(ctx: OutboundContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const ep = await endpointOf(ctx, request);
    // The test resource exists with its endpoint; it has no ETag (RFC 9110 §13.1, as every POST).
    checkPostPreconditions(request.headers, request.url.split('?')[0]);
    const sent = await ctx.outbound.attempts.sendTest(ep, testBody(ep.id, ctx.publicUrl));
    const { blocked: _, id, ...outcome } = sent;
    const links = { endpoint: { href: endpointPath(ep.id) }, deliveries: { href: deliveriesPath(ep.id) } };
    return sendRepresentation(request, reply, 200, { eventType: TEST_EVENT_TYPE, webhookId: id, ...outcome, _links: links });
  };
}
