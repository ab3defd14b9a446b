import type { FastifyReply, FastifyRequest } from 'fastify';
import { BadRequestError } from '../core/errors.js';
import type { Link } from './hal.js';
import { sendRepresentation } from './respond.js';
import { DEFAULT_LIMIT, MAX_LIMIT } from './page-size.js';

/** A validated request for one page of an append-only log (the event log, a webhook inbox). */
export interface LogPageRequest {
  limit: number;
  /** Position after which to read (0: from the start). */
  after: number;
  /** The filter parameters given, kept in the page links. */
  filters: Record<string, string>;
  limitGiven: boolean;
}

/**
 * Parses `limit`, `cursor` and the allowed filters of a log listing; anything else is a 400.
 * Cursors are opaque: `prefix` keeps one log's cursor from being used on another.
 */
export function parseLogPage(query: Record<string, unknown>, filterKeys: string[], prefix: string): LogPageRequest {
  const filters: Record<string, string> = {};
  for (const [k, v] of Object.entries(query)) {
    if (k === 'limit' || k === 'cursor') continue;
    if (!filterKeys.includes(k)) throw bad(`unknown query parameter "${k}"; use ${[...filterKeys, 'limit', 'cursor'].join(', ')}`);
    filters[k] = [v].flat().join(',');
  }
  const limit = query.limit === undefined ? DEFAULT_LIMIT : Number(query.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw bad(`limit must be an integer from 1 to ${MAX_LIMIT}`);
  let after = 0;
  if (query.cursor !== undefined) {
    const m = new RegExp(`^${prefix}(\\d{1,15})$`).exec(Buffer.from(String(query.cursor), 'base64url').toString('utf8'));
    if (!m) throw bad('cursor is not a cursor this server issued; follow the next link');
    after = Number(m[1]);
  }
  return { limit, after, filters, limitGiven: query.limit !== undefined };
}

/**
 * Sends one page of a log, oldest first, as HAL with self/first/next links (and a `Link` header).
 * `next` is always given: the log grows, and a reader polls it to follow new entries.
 */
export function sendLogPage<T extends { seq: number }>(
  request: FastifyRequest,
  reply: FastifyReply,
  page: { path: string; prefix: string; rel: string; request: LogPageRequest; rows: T[]; embed: (row: T) => Record<string, unknown> },
) {
  const { limit, after, filters, limitGiven } = page.request;
  const rows = page.rows.slice(0, limit);
  const href = (position?: number) => {
    const s = new URLSearchParams(filters);
    if (limitGiven) s.set('limit', String(limit));
    if (position) s.set('cursor', Buffer.from(`${page.prefix}${position}`).toString('base64url'));
    return `${page.path}${s.size ? `?${s}` : ''}`;
  };
  const links: Record<string, Link> = { self: { href: href(after) }, first: { href: href() }, next: { href: href(rows.at(-1)?.seq ?? after) } };
  reply.header('link', `<${links.next.href}>; rel="next", <${links.first.href}>; rel="first"`);
  return sendRepresentation(request, reply, 200, { _links: links, count: rows.length, _embedded: { [page.rel]: rows.map(page.embed) } });
}

function bad(message: string): BadRequestError {
  return new BadRequestError('invalid-query', message);
}
