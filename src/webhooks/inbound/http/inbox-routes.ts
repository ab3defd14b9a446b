import type { FastifyReply, FastifyRequest } from 'fastify';
import { checkPostPreconditions } from '../../../http/conditional.js';
import { BadRequestError, DomainError, NotFoundError } from '../../../core/errors.js';
import type { WebhookContext } from './webhook-context.js';
import { recordPath, type Link } from '../../../http/hal.js';
import { sendRepresentation } from '../../../http/respond.js';
import { parseLogPage, sendLogPage } from '../../../http/log-page.js';
import type { Delivery, DeliveryAttempt, DeliveryStatus } from '../../../store/inbox.js';
import { keptHeaders } from '../kept-headers.js';

const STATUSES: DeliveryStatus[] = ['received', 'processed', 'failed'];

/** The body as text when it is UTF-8, else base64 (multipart mail with binary attachments). */
function bodyOf(body: Buffer): { body: string; bodyEncoding: 'utf8' | 'base64' } {
  const text = body.toString('utf8');
  return Buffer.from(text, 'utf8').equals(body) ? { body: text, bodyEncoding: 'utf8' } : { body: body.toString('base64'), bodyEncoding: 'base64' };
}

const base = (d: Delivery) => `/webhooks/${d.source}/events`;

/** The HAL representation of a delivery; lists leave out headers and body. */
export function halDelivery(d: Delivery, full = true): Record<string, unknown> {
  const links: Record<string, Link> = { self: { href: `${base(d)}/${d.id}` }, collection: { href: base(d) }, attempts: { href: `${base(d)}/${d.id}/attempts` } };
  const summary = {
    id: d.id, source: d.source, eventId: d.eventId, receivedAt: d.receivedAt, status: d.status, attempts: d.attempts,
    nextAttemptAt: d.nextAttemptAt, lastError: d.lastError, verification: d.verification,
  };
  if (!full) return { ...summary, _links: links };
  return { ...summary, contentType: d.contentType, headers: d.headers, ...bodyOf(d.body), response: d.response, attemptLog: d.attemptLog.map(attemptView), _links: links };
}

function halAttempt(d: Delivery, a: DeliveryAttempt): Record<string, unknown> {
  const self = `${base(d)}/${d.id}/attempts/${a.number}`;
  return { ...attemptView(a), _links: { self: { href: self }, delivery: { href: `${base(d)}/${d.id}` } } };
}

/** An attempt as the API shows it: the records its actions created by their paths (older attempts stored the path itself). */
function attemptView(a: DeliveryAttempt): DeliveryAttempt {
  if (!a.result) return a;
  const records = a.result.records.map((r) => (typeof r === 'string' ? r : recordPath({ name: r.resource }, r.id)));
  return { ...a, result: { ...a.result, records } };
}

/** The configured source a request's path names; a NotFoundError when none is named so. */
export function sourceOf(ctx: WebhookContext, request: FastifyRequest): string {
  const { source } = request.params as { source: string };
  if (!ctx.webhooks.sources.has(source)) throw new NotFoundError(`no webhook source is named "${source}"`);
  return source;
}

async function deliveryOf(ctx: WebhookContext, request: FastifyRequest): Promise<Delivery> {
  const source = sourceOf(ctx, request);
  const { id } = request.params as { id: string };
  const d = await ctx.store.inbox.get(source, id);
  if (!d) throw new NotFoundError(`source ${source} has no delivery ${id}`);
  return d;
}

/** `GET /webhooks/{source}/events`: the source's inbox, oldest first; `status` filters, `cursor` resumes. */
export function listDeliveries(ctx: WebhookContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const source = sourceOf(ctx, request);
    const page = parseLogPage(request.query as Record<string, unknown>, ['status'], 'd');
    const status = page.filters.status as DeliveryStatus | undefined;
    if (status !== undefined && !STATUSES.includes(status)) throw new BadRequestError('invalid-query', `status must be one of ${STATUSES.join(', ')}`);
    const rows = await ctx.store.inbox.list(source, { after: page.after, limit: page.limit + 1, status });
    return sendLogPage(request, reply, { path: `/webhooks/${source}/events`, prefix: 'd', rel: 'deliveries', request: page, rows, embed: (d) => halDelivery(d, false) });
  };
}

/**
 * `GET /webhooks/{source}/events/{id}`: one delivery with headers, raw body, response and attempts.
 * Credentials are masked again on the way out, for deliveries stored before they were masked on the way in.
 */
export function readDelivery(ctx: WebhookContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const d = await deliveryOf(ctx, request);
    return sendRepresentation(request, reply, 200, halDelivery({ ...d, headers: keptHeaders(d.headers, ctx.webhooks.sources.get(d.source)!) }));
  };
}

/** `GET /webhooks/{source}/events/{id}/attempts`: the delivery's attempt log. */
export function listAttempts(ctx: WebhookContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const d = await deliveryOf(ctx, request);
    const links = { self: { href: `${base(d)}/${d.id}/attempts` }, delivery: { href: `${base(d)}/${d.id}` } };
    return sendRepresentation(request, reply, 200, { _links: links, count: d.attemptLog.length, _embedded: { attempts: d.attemptLog.map((a) => halAttempt(d, a)) } });
  };
}

/** `GET /webhooks/{source}/events/{id}/attempts/{n}`. */
export function readAttempt(ctx: WebhookContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const d = await deliveryOf(ctx, request);
    const { n } = request.params as { n: string };
    const attempt = d.attemptLog.find((a) => String(a.number) === n);
    if (!attempt) throw new NotFoundError(`delivery ${d.id} has no attempt ${n}`);
    return sendRepresentation(request, reply, 200, halAttempt(d, attempt));
  };
}

/**
 * `POST /webhooks/{source}/events/{id}/attempts`: runs the delivery's actions again now (for a
 * received or failed delivery) and answers 201 with the attempt's outcome.
 */
export function createAttempt(ctx: WebhookContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const d = await deliveryOf(ctx, request);
    // The attempts collection exists with its delivery; it has no ETag (RFC 9110 §13.1, as every POST).
    checkPostPreconditions(request.headers, request.url.split('?')[0]);
    if (d.status === 'processed') throw new DomainError('webhook-already-processed', `delivery ${d.id} was already processed; another attempt would repeat its actions`);
    const after = await ctx.webhooks.worker.process(d);
    if (!after) throw new DomainError('webhook-already-processed', `another attempt at delivery ${d.id} is under way or just finished; GET it to see the outcome`);
    const attempt = after.attemptLog.at(-1)!;
    const body = { ...halAttempt(after, attempt), delivery: halDelivery(after, false) };
    return sendRepresentation(request, reply, 201, body, { location: `${base(after)}/${after.id}/attempts/${attempt.number}` });
  };
}
