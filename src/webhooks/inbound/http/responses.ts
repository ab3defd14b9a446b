import type { FastifyReply, FastifyRequest } from 'fastify';
import { problemBody } from '../../../http/problems.js';
import type { StoredResponse } from '../../../store/inbox.js';
import type { ProviderDescriptor } from '../providers/index.js';

/**
 * The 2xx each provider expects for an accepted delivery: its reply format where it reads a reply
 * in the answer (Twilio's TwiML); everyone else takes any 2xx, and gets the delivery's id so an
 * operator can find it in the inbox.
 */
export function acceptedResponse(provider: ProviderDescriptor, deliveryId: string, replyText?: string): StoredResponse {
  if (provider.reply) return { status: 200, contentType: provider.reply.contentType, body: provider.reply.body(replyText) };
  return { status: 200, contentType: 'application/json', body: JSON.stringify({ received: true, id: deliveryId }) };
}

/**
 * The answer to a genuine delivery that can never be processed, in the status that stops the
 * provider's retries (its `rejection`; 422 unless it says otherwise).
 */
export function rejectedResponse(request: FastifyRequest, provider: ProviderDescriptor, deliveryId: string, detail: string): StoredResponse {
  const body = problemBody(request, provider.rejection ?? 'webhook-payload-invalid', detail, { delivery: deliveryId });
  return { status: body.status as number, contentType: 'application/problem+json', body: JSON.stringify(body) };
}

/** Sends a stored response exactly as it was first sent. */
export function sendStored(reply: FastifyReply, response: StoredResponse): FastifyReply {
  return reply.code(response.status).type(response.contentType).send(response.body);
}
