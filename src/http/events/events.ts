import type { FastifyReply, FastifyRequest } from 'fastify';
import type { EventRecord } from '../../core/events.js';
import { BadRequestError, NotFoundError } from '../../core/errors.js';
import type { AppContext } from '../context.js';
import type { Link } from '../hal.js';
import { sendRepresentation } from '../respond.js';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../resources/list-params.js';

/** The HAL representation of one event, linking to the record it is about. */
export function halEvent(e: EventRecord): Record<string, unknown> {
  const links: Record<string, Link> = { self: { href: `/events/${e.id}` } };
  if (e.recordId !== null) links.record = { href: `/${e.resource}/${encodeURIComponent(String(e.recordId))}` };
  return { id: e.id, type: e.type, resource: e.resource, recordId: e.recordId, createdAt: e.createdAt, data: e.data, _links: links };
}

/**
 * `GET /events`: the event log, oldest first. `type=a,b` filters; `after` is an opaque cursor
 * (the log position), so a reader that stores it resumes exactly where it stopped.
 */
export function listEvents(ctx: AppContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const q = request.query as Record<string, string | string[] | undefined>;
    for (const k of Object.keys(q)) if (!['type', 'limit', 'cursor'].includes(k)) throw bad(`unknown query parameter "${k}"; use type, limit, cursor`);
    const limit = q.limit === undefined ? DEFAULT_LIMIT : Number(q.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw bad(`limit must be an integer from 1 to ${MAX_LIMIT}`);
    const types = [q.type ?? []].flat().flatMap((t) => t.split(',')).filter(Boolean);
    const after = q.cursor === undefined ? 0 : decodePosition(String(q.cursor));
    const events = await ctx.store.listEvents({ after, limit: limit + 1, types });
    const page = events.slice(0, limit);
    const params = (cursor?: number) => {
      const s = new URLSearchParams();
      if (types.length) s.set('type', types.join(','));
      if (q.limit !== undefined) s.set('limit', String(limit));
      if (cursor) s.set('cursor', encodePosition(cursor));
      return `/events${s.size ? `?${s}` : ''}`;
    };
    const links: Record<string, Link> = { self: { href: params(after) }, first: { href: params() } };
    // `next` is always given: the log grows, and a reader polls it to follow new events.
    links.next = { href: params(page.at(-1)?.seq ?? after) };
    reply.header('link', `<${links.next.href}>; rel="next", <${links.first.href}>; rel="first"`);
    return sendRepresentation(request, reply, 200, { _links: links, count: page.length, _embedded: { events: page.map(halEvent) } });
  };
}

/** `GET /events/{id}`. */
export function readEvent(ctx: AppContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const { id } = request.params as { id: string };
    const event = await ctx.store.getEvent(id);
    if (!event) throw new NotFoundError(`no event has id ${id}`);
    return sendRepresentation(request, reply, 200, halEvent(event));
  };
}

function encodePosition(seq: number): string {
  return Buffer.from(`e${seq}`).toString('base64url');
}

function decodePosition(cursor: string): number {
  const m = /^e(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!m) throw bad('cursor is not a cursor this server issued; follow the next link');
  return Number(m[1]);
}

function bad(message: string) {
  return new BadRequestError('invalid-query', message);
}
