import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { parseMediaType } from '../../../http/media-type.js';
import { ValidationError } from '../../../core/errors.js';
import type { WebhookContext } from './webhook-context.js';
import { sendProblem } from '../../../http/problems.js';
import { newDeliveryId, storableError, type DeliveryStatus, type StoredResponse } from '../../../store/inbox.js';
import { messageView, valueAt } from '../actions/message-view.js';
import { receivedEvent } from '../actions/emit.js';
import { replyTo } from '../actions/reply.js';
import { recordFromMessage } from '../actions/store.js';
import { sendRateLimited, UNVERIFIED_PER_ADDRESS } from '../delivery-limits.js';
import { keptHeaders } from '../kept-headers.js';
import { parsePayload } from '../payload/parse-payload.js';
import { acceptsContentType, normalize, PayloadError, type NormalizeResult } from '../providers/index.js';
import { isoFormatter } from './iso-time.js';
import { acceptedResponse, rejectedResponse, sendStored } from './responses.js';
import type { Source } from '../sources.js';
import { verify, type HeaderMap } from '../verifiers/index.js';

/**
 * `POST /webhooks/{source}`: content type, size, then verification of the raw bytes before
 * anything parses them; failures count against the client address, genuine deliveries against
 * the source's rate limit. A genuine delivery is committed to the inbox (once per provider event
 * id) before its answer is sent, and a redelivery gets the first answer again.
 */
export function receiveWebhook(ctx: WebhookContext) {
  const hub = ctx.webhooks;
  // One memo for the receiving clock, one for signed times: they tick apart.
  const receivedIso = isoFormatter();
  const signedIso = isoFormatter();
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const name = (request.params as { source: string }).source;
    const source = hub.sources.get(name);
    if (!source) return sendProblem(request, reply, 'not-found', `no webhook source is named "${name}"`);
    const contentType = request.headers['content-type'] ?? '';
    if (!acceptsContentType(source.provider, contentType)) {
      return sendProblem(request, reply, 'unsupported-media-type', `${source.provider.name} sends ${source.provider.contentTypes.join(' or ')}, not ${parseMediaType(contentType).type || 'a body without Content-Type'}`);
    }
    const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    if (rawBody.length > source.bodyLimit) return sendProblem(request, reply, 'body-too-large', `source ${name} accepts bodies up to ${source.bodyLimit} bytes`);

    const headers = request.headers as HeaderMap;
    // Only the schemes that sign the URL read it: built on demand, not for every delivery.
    const input = { rawBody, headers, contentType, get url() { return `${ctx.publicUrl ?? `${request.protocol}://${request.host}`}${request.originalUrl}`; } };
    const verified = verify(source.scheme, input, source.verify);
    if (!verified.ok) {
      const flood = hub.limiter.hit(UNVERIFIED_PER_ADDRESS, request.ip);
      if (!flood.allowed) {
        return sendRateLimited(request, reply, flood, `more than ${UNVERIFIED_PER_ADDRESS.limit} deliveries from ${request.ip} failed verification in ${UNVERIFIED_PER_ADDRESS.windowSeconds} s`);
      }
      request.log.warn({ source: name, code: verified.code }, `webhook rejected: ${verified.reason}`);
      if (source.scheme === 'basic') reply.header('www-authenticate', `Basic realm="webhooks/${name}", charset="UTF-8"`);
      return sendProblem(request, reply, 'webhook-unverified', verified.reason, { reason: verified.code });
    }
    if (source.rateLimit) {
      const limit = hub.limiter.hit(source.rateLimit, name);
      if (!limit.allowed) return sendRateLimited(request, reply, limit, `source ${name} takes ${source.rateLimit.limit} deliveries per ${source.rateLimit.windowSeconds} s`);
    }

    const id = newDeliveryId();
    const now = Date.now();
    const receivedAt = receivedIso(now);
    let eventId = verified.eventId && !source.idHeader && !source.idPath ? verified.eventId : undefined;
    let message: NormalizeResult | undefined;
    let rejection: string | undefined;
    try {
      eventId ??= findEventId(source, headers, contentType, rawBody);
      // A payload the actions can never use (unreadable, too deep, unstorable) is refused now, not retried later.
      if (source.hasAsync || source.reply) message = await normalize(source.provider, contentType, rawBody, source.maxJsonDepth);
      if (source.store && message) recordFromMessage(source.store, messageView(message, { receivedAt, eventId: eventId ?? id }));
      if (source.emit && message) receivedEvent({ id, source: name, eventId: eventId ?? id, receivedAt }, message, source.recordLimit);
    } catch (err) {
      if (!(err instanceof PayloadError || err instanceof ValidationError)) throw err;
      rejection = err.message;
    }
    eventId = eventId === undefined ? `sha256:${sha256(rawBody)}` : storableEventId(eventId);

    let response: StoredResponse;
    if (rejection) response = rejectedResponse(request, source.provider, id, rejection);
    else if (source.reply && message?.kind === 'sms') {
      // A reply costs a lookup: answer a redelivery from the inbox instead of computing it again.
      const first = await ctx.store.inbox.findByEventId(name, eventId);
      if (first) return sendStored(reply, first.response);
      // A provider that reads no reply in its answer is not sent one, so none is looked up.
      response = acceptedResponse(source.provider, id, source.provider.reply ? await replyTo(ctx.store, source.reply, message.sms.text) : undefined);
    } else response = acceptedResponse(source.provider, id);

    const status: DeliveryStatus = rejection ? 'failed' : source.hasAsync ? 'received' : 'processed';
    const stored = await ctx.store.inbox.receive({
      id,
      source: name,
      eventId,
      receivedAt,
      headers: keptHeaders(headers, source),
      contentType,
      body: rawBody,
      verification: { scheme: source.scheme, ...(verified.timestamp ? { signedAt: signedIso(verified.timestamp) } : {}) },
      status,
      nextAttemptAt: status === 'received' ? new Date(now + ctx.config.webhooks.workerDelayMs).toISOString() : null,
      lastError: storableError(rejection ?? null),
      response,
    });
    if (stored.created && status === 'received') hub.worker.nudge(stored.delivery);
    return sendStored(reply, stored.delivery.response);
  };
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

/**
 * An event id taken from a payload is keyed on as is, unless no engine could store it alike
 * (control characters such as NUL, or over 255 characters): then on its hash, which de-duplicates the same.
 */
function storableEventId(id: string): string {
  return /[\u0000-\u001f\u007f]/.test(id) || id.length > 255 ? `sha256:${sha256(id)}` : id;
}

/** The provider's event id: a configured header or body path first, else the provider's own. */
function findEventId(source: Source, headers: HeaderMap, contentType: string, rawBody: Buffer): string | undefined {
  if (source.idHeader) {
    const v = headers[source.idHeader];
    return (Array.isArray(v) ? v[0] : v) || undefined;
  }
  // Some providers name the event in a header: no need to parse the body for it.
  if (!source.idPath && source.provider.eventIdInHeaders) {
    const fromHeaders = source.provider.eventId(headers, undefined);
    if (fromHeaders) return fromHeaders;
  }
  const parsed = parsePayload(contentType, rawBody, source.maxJsonDepth);
  if (source.idPath) {
    const v = valueAt(parsed, source.idPath);
    return typeof v === 'string' || typeof v === 'number' ? String(v) : undefined;
  }
  return source.provider.eventId(headers, parsed);
}
