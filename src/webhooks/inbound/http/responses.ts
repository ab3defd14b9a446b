import type { FastifyReply, FastifyRequest } from 'fastify';
import { problemBody, type ProblemCode } from '../../../http/problems.js';
import type { StoredResponse } from '../../../store/inbox.js';
import type { ProviderName } from '../providers/index.js';
import { twiml } from '../reply-match.js';

/**
 * The 2xx each provider expects for an accepted delivery. Twilio wants TwiML (an empty
 * `<Response/>` sends no reply and logs no warning); everyone else takes any 2xx, and gets the
 * delivery's id so an operator can find it in the inbox.
 */
export function acceptedResponse(provider: ProviderName, deliveryId: string, replyText?: string): StoredResponse {
  if (provider === 'twilio') return { status: 200, contentType: 'text/xml; charset=utf-8', body: twiml(replyText) };
  // Vonage takes no reply in the webhook response: 200 is all it expects.
  return { status: 200, contentType: 'application/json', body: JSON.stringify({ received: true, id: deliveryId }) };
}

/**
 * The answer to a genuine delivery that can never be processed, in the status that stops the
 * provider's retries: Postmark stops on 403, Mailgun on 406; others get 422.
 */
export function rejectedResponse(request: FastifyRequest, provider: ProviderName, deliveryId: string, detail: string): StoredResponse {
  const code: ProblemCode = provider === 'postmark' ? 'webhook-rejected' : provider === 'mailgun' ? 'webhook-not-acceptable' : 'webhook-payload-invalid';
  const body = problemBody(request, code, detail, { delivery: deliveryId });
  return { status: body.status as number, contentType: 'application/problem+json', body: JSON.stringify(body) };
}

/** Sends a stored response exactly as it was first sent. */
export function sendStored(reply: FastifyReply, response: StoredResponse): FastifyReply {
  return reply.code(response.status).type(response.contentType).send(response.body);
}
