import type { FastifyReply, FastifyRequest } from 'fastify';
import { checkPostPreconditions } from '../../../http/conditional.js';
import { DomainError, ValidationError, type FieldError } from '../../../core/errors.js';
import { JSON_BODY_TYPES } from '../../../http/body-types.js';
import { parseMediaType } from '../../../http/media-type.js';
import { sendRepresentation } from '../../../http/respond.js';
import { endpointOf, endpointPath } from './endpoint-view.js';
import { deliveriesPath } from './delivery-view.js';
import type { OutboundContext } from './outbound-context.js';

// RFC 3339 date-time: a date, a time and an offset (Z or ±hh:mm), as JSON Schema's `date-time` means.
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

/** A validated replay request: from when (as the log stores times), and whether only failed deliveries. */
export function parseReplay(body: unknown, now: number): { since: string; failedOnly: boolean } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ValidationError([{ pointer: '', detail: 'must be a JSON object such as {"since": "2026-01-01T00:00:00Z"}' }]);
  const b = body as Record<string, unknown>;
  const errors: FieldError[] = [];
  for (const key of Object.keys(b)) if (key !== 'since' && key !== 'failedOnly') errors.push({ pointer: `/${key}`, detail: 'unknown member; allowed: since, failedOnly' });
  const at = typeof b.since === 'string' && DATE_TIME.test(b.since) ? Date.parse(b.since.replace(' ', 'T')) : NaN;
  if (Number.isNaN(at)) errors.push({ pointer: '/since', detail: 'required: an RFC 3339 date-time such as 2026-01-01T00:00:00Z; events committed from then on are sent again' });
  else if (at > now) errors.push({ pointer: '/since', detail: 'is in the future; nothing was committed after it yet' });
  if (b.failedOnly !== undefined && typeof b.failedOnly !== 'boolean') errors.push({ pointer: '/failedOnly', detail: 'must be true or false' });
  if (errors.length) throw new ValidationError(errors);
  return { since: new Date(at).toISOString(), failedOnly: b.failedOnly === true };
}

/**
 * `POST /webhook-endpoints/{id}/replays`: sends again everything committed since a time (or only
 * what failed), deriving the deliveries of events from before the endpoint existed. 202: the
 * dispatcher sends them in the background; `queued` counts existing deliveries queued again.
 */
export function createReplay(ctx: OutboundContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    // An action route gets no body-type check from the app; JSON is what this one reads.
    const { type } = parseMediaType(request.headers['content-type']);
    if (!(JSON_BODY_TYPES as readonly string[]).includes(type)) {
      throw new DomainError('unsupported-media-type', `POST ${request.url.split('?')[0]} takes ${JSON_BODY_TYPES.join(' or ')}, not ${type || 'a body without Content-Type'}`);
    }
    const ep = await endpointOf(ctx, request);
    // The replays collection exists with its endpoint; it has no ETag (RFC 9110 §13.1, as every POST).
    checkPostPreconditions(request.headers, request.url.split('?')[0]);
    const now = Date.now();
    const { since, failedOnly } = parseReplay(request.body, now);
    const queued = await ctx.store.outbox.replay(ep.id, since, { failedOnly, now: new Date(now).toISOString() });
    // Nothing was appended to the log, so no commit signal starts the dispatcher: without this the
    // replay would wait for its next poll (up to a poll interval of idle time before the first send).
    ctx.outbound.attempts.wake();
    const links = { endpoint: { href: endpointPath(ep.id) }, deliveries: { href: deliveriesPath(ep.id) } };
    return sendRepresentation(request, reply, 202, { queued, since, failedOnly, enabled: ep.enabled, _links: links });
  };
}
