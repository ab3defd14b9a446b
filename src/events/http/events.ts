import type { FastifyReply, FastifyRequest } from 'fastify';
import { eventVisibility } from '../../auth/access.js';
import type { EventRecord } from '../../core/events.js';
import { NotFoundError } from '../../core/errors.js';
import type { HttpContext } from '../../http/context.js';
import type { Link } from '../../http/hal.js';
import { sendRepresentation } from '../../http/respond.js';
import { parseLogPage, sendLogPage } from '../../http/log-page.js';
import { isEventId } from '../../store/records.js';
import { sendProblem } from '../../http/problems.js';
import { eventsExpired } from './events-expired.js';

/** The HAL representation of one event, linking to the record it is about. */
export function halEvent(e: EventRecord): Record<string, unknown> {
  const links: Record<string, Link> = { self: { href: `/events/${e.id}` } };
  if (e.recordId !== null) links.record = { href: `/${e.resource}/${encodeURIComponent(String(e.recordId))}` };
  return { id: e.id, type: e.type, resource: e.resource, recordId: e.recordId, createdAt: e.createdAt, data: e.data, _links: links };
}

/**
 * `GET /events`: the event log, oldest first, showing only events of records the caller could
 * read. `type=a,b` filters; `cursor` is opaque (a log position), so a reader that stores it
 * resumes exactly where it stopped.
 */
export function listEvents(ctx: HttpContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const page = parseLogPage(request.query as Record<string, unknown>, ['type'], 'e');
    const types = (page.filters.type ?? '').split(',').filter(Boolean);
    const visible = eventVisibility(ctx.resources.values(), request.principal);
    const rows = await ctx.store.listEvents({ after: page.after, limit: page.limit + 1, types, visible });
    // A cursor from before what retention pruned would resume past events it never saw: 410, not a silent gap.
    const cursor = (request.query as Record<string, unknown>).cursor;
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
