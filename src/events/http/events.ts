import type { FastifyReply, FastifyRequest } from 'fastify';
import { eventVisibility } from '../../auth/access.js';
import type { EventRecord } from '../../core/events.js';
import { NotFoundError } from '../../core/errors.js';
import type { HttpContext } from '../../http/context.js';
import type { Link } from '../../http/hal.js';
import { sendRepresentation } from '../../http/respond.js';
import { parseLogPage, sendKeysetPage, sendLogPage } from '../../http/log-page.js';
import { BadRequestError } from '../../core/errors.js';
import { isEventId } from '../../store/records.js';
import { sendProblem } from '../../http/problems.js';
import { eventsExpired } from './events-expired.js';
import { eventResources, parseEventSelection } from './event-selection.js';

/** The HAL representation of one event, linking to the record it is about. */
export function halEvent(e: EventRecord): Record<string, unknown> {
  const links: Record<string, Link> = { self: { href: `/events/${e.id}` } };
  if (e.recordId !== null) links.record = { href: `/${e.resource}/${encodeURIComponent(String(e.recordId))}` };
  return { id: e.id, type: e.type, resource: e.resource, recordId: e.recordId, createdAt: e.createdAt, data: e.data, _links: links };
}

/** The `order` values of `GET /events`: the log's own order (default), or newest first. */
export const EVENT_ORDERS = ['oldest', 'newest'] as const;

export { eventResources };

/**
 * `GET /events`: the event log, oldest first (or `order=newest`), showing only events of records
 * the caller could read. `type=a,b`, `resource=a,b` and (with one collection) `recordId` filter; `cursor` is opaque (a log
 * position), so a reader that stores it resumes exactly where it stopped.
 */
export function listEvents(ctx: HttpContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const query = request.query as Record<string, unknown>;
    const order = query.order === undefined || query.order === '' ? 'oldest' : String(query.order);
    if (!(EVENT_ORDERS as readonly string[]).includes(order)) throw new BadRequestError('invalid-query', `order must be ${EVENT_ORDERS.join(' or ')}`);
    // Newest-first cursors name a position to read before, so they carry their own prefix: one of the
    // other order is refused rather than read the wrong way.
    const newestFirst = order === 'newest';
    const selection = parseEventSelection(query, ctx, false);
    const page = parseLogPage(query, ['type', 'resource', 'recordId', 'order'], newestFirst ? 'n' : 'e');
    const types = (page.filters.type ?? '').split(',').filter(Boolean);
    const { resources } = selection;
    const recordId = selection.filter?.recordId;
    const visible = eventVisibility(ctx.resources.values(), request.principal);
    if (newestFirst) {
      const before = page.after || undefined;
      const rows = await ctx.store.listEvents({ newestFirst, before, limit: page.limit + 1, types, resources, recordId, visible });
      const request_ = { ...page, after: before };
      return sendKeysetPage(request, reply, { path: '/events', prefix: 'n', rel: 'events', request: request_, rows, position: (e) => String(e.seq), embed: halEvent, tail: 'newest-first' });
    }
    const rows = await ctx.store.listEvents({ after: page.after, limit: page.limit + 1, types, resources, recordId, visible });
    // A cursor from before what retention pruned would resume past events it never saw: 410, not a silent gap.
    const cursor = query.cursor;
    if (cursor !== undefined && cursor !== '') {
      const expired = await eventsExpired(ctx.store, page.after, visible, 'Resync: re-read the state you derive from events, then page GET /events without a cursor (it starts at the oldest event kept).');
      if (expired) return sendProblem(request, reply, 'events-expired', expired);
    }
    return sendLogPage(request, reply, { path: '/events', prefix: 'e', rel: 'events', request: page, rows, embed: halEvent });
  };
}

/** `GET /events/{id}`: 404 too for an event of a record the caller could not read. */
export function readEvent(ctx: HttpContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const { id } = request.params as { id: string };
    const event = isEventId(id) ? await ctx.store.getEvent(id, eventVisibility(ctx.resources.values(), request.principal)) : undefined;
    if (!event) throw new NotFoundError(`no event has id ${id}`);
    return sendRepresentation(request, reply, 200, halEvent(event));
  };
}
