import type { FastifyReply, FastifyRequest } from 'fastify';
import { BadRequestError } from '../../../core/errors.js';
import type { Link } from '../../../http/hal.js';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../../../http/page-size.js';
import { sendRepresentation } from '../../../http/respond.js';

/** A validated request for a page of endpoints: after which id, how many. */
export interface EndpointPageRequest {
  limit: number;
  after?: string;
  limitGiven: boolean;
}

const PREFIX = 'ep:';
const bad = (message: string) => new BadRequestError('invalid-query', message);

/**
 * Parses `limit` and `cursor` of `GET /webhook-endpoints`. The cursor is opaque (base64url of the
 * last id seen), like the event log's, so clients follow `next` rather than build positions.
 */
export function parseEndpointPage(query: Record<string, unknown>): EndpointPageRequest {
  for (const k of Object.keys(query)) if (k !== 'limit' && k !== 'cursor') throw bad(`unknown query parameter "${k}"; use limit, cursor`);
  const limit = query.limit === undefined ? DEFAULT_LIMIT : Number(query.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw bad(`limit must be an integer from 1 to ${MAX_LIMIT}`);
  let after: string | undefined;
  if (query.cursor !== undefined) {
    const text = Buffer.from(String(query.cursor), 'base64url').toString('utf8');
    if (!/^ep:ep_[0-9a-f]{32}$/.test(text)) throw bad('cursor is not a cursor this server issued; follow the next link');
    after = text.slice(PREFIX.length);
  }
  return { limit, after, limitGiven: query.limit !== undefined };
}

/**
 * Sends a page of endpoints, oldest first, with self/first/next links (and a `Link` header).
 * `next` is always given, as on the event log: new endpoints are added at the end.
 */
export function sendEndpointPage<T extends { id: string }>(
  request: FastifyRequest,
  reply: FastifyReply,
  page: { path: string; rel: string; request: EndpointPageRequest; rows: T[]; embed: (row: T) => Record<string, unknown> },
) {
  const { limit, after, limitGiven } = page.request;
  const rows = page.rows.slice(0, limit);
  const href = (position?: string) => {
    const s = new URLSearchParams();
    if (limitGiven) s.set('limit', String(limit));
    if (position) s.set('cursor', Buffer.from(`${PREFIX}${position}`).toString('base64url'));
    return `${page.path}${s.size ? `?${s}` : ''}`;
  };
  const links: Record<string, Link> = { self: { href: href(after) }, first: { href: href() }, next: { href: href(rows.at(-1)?.id ?? after) } };
  reply.header('link', `<${links.next.href}>; rel="next", <${links.first.href}>; rel="first"`);
  return sendRepresentation(request, reply, 200, { _links: links, count: rows.length, _embedded: { [page.rel]: rows.map(page.embed) } });
}
