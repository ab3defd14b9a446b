import type { FastifyReply, FastifyRequest } from 'fastify';
import { BadRequestError } from '../core/errors.js';
import type { Link } from './hal.js';
import { sendRepresentation } from './respond.js';
import { DEFAULT_LIMIT, MAX_LIMIT } from './page-size.js';

/** A validated request for one keyset page: how many, after which position, with which filters. */
export interface KeysetPageRequest<P> {
  limit: number;
  /** Position after which to read; undefined: from the start. */
  after: P | undefined;
  /** The filter parameters given, kept in the page links. */
  filters: Record<string, string>;
  limitGiven: boolean;
}

/** A validated request for one page of an append-only log (the event log, a webhook inbox). */
export interface LogPageRequest extends Omit<KeysetPageRequest<number>, 'after'> {
  /** Position after which to read (0: from the start). */
  after: number;
}

/** How a listing's cursors look: a prefix (so one listing's cursor is refused by another) and the position after it. */
export interface CursorFormat<P> {
  prefix: string;
  /** The position a cursor's text after the prefix names, or undefined when it names none. */
  parse(text: string): P | undefined;
}

/** The most characters of one filter of a log listing: far above any real list of types or ids. */
const MAX_FILTER = 1000;

/**
 * Parses `limit`, `cursor` and the allowed filters of a keyset listing; anything else (or a NUL in a filter) is a 400.
 * Cursors are opaque (base64url of prefix and position), so clients follow `next` rather than build them.
 */
export function parseKeysetPage<P>(query: Record<string, unknown>, filterKeys: string[], cursor: CursorFormat<P>): KeysetPageRequest<P> {
  const filters: Record<string, string> = {};
  for (const [k, v] of Object.entries(query)) {
    if (k === 'limit' || k === 'cursor') continue;
    if (!filterKeys.includes(k)) throw bad(`unknown query parameter "${k}"; use ${[...filterKeys, 'limit', 'cursor'].join(', ')}`);
    filters[k] = [v].flat().join(',');
    // PostgreSQL text cannot hold NUL, and no type or status has one: refused as resource lists refuse it.
    if (filters[k].includes('\u0000')) throw bad(`${k}: values must not contain the NUL character`);
    // Filters come back in every page link (Link header and `_links`): bounded, so those stay short.
    if (filters[k].length > MAX_FILTER) throw bad(`${k}: at most ${MAX_FILTER} characters (types, statuses and ids are short; a list is comma-separated)`);
  }
  const limit = query.limit === undefined ? DEFAULT_LIMIT : Number(query.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw bad(`limit must be an integer from 1 to ${MAX_LIMIT}`);
  let after: P | undefined;
  // An empty cursor is the first page, as on every resource list (an empty parameter is an absent one).
  if (query.cursor !== undefined && query.cursor !== '') {
    const text = Buffer.from(String(query.cursor), 'base64url').toString('utf8');
    after = text.startsWith(cursor.prefix) ? cursor.parse(text.slice(cursor.prefix.length)) : undefined;
    if (after === undefined) throw bad('cursor is not a cursor this server issued; follow the next link');
  }
  return { limit, after, filters, limitGiven: query.limit !== undefined };
}

/**
 * The link relation of a log page that a reader polls for entries added later: always present, it
 * names the position just after the page (the page's own position when it is empty). Unlike `next`,
 * which is present only while more entries exist now, so that "follow next until there is none" ends.
 */
const POLL_REL = 'poll';

/** One keyset page to send: `rows` may hold one row past `limit`, which only tells that more exist. */
export interface KeysetPage<T> {
  path: string;
  prefix: string;
  rel: string;
  request: KeysetPageRequest<unknown>;
  rows: T[];
  position: (row: T) => string;
  embed: (row: T) => Record<string, unknown>;
  /**
   * A log that readers tail: the page also carries the {@link POLL_REL} link. `newest-first`: a log
   * read backwards, whose newer entries appear on its first page, so that is where `poll` leads.
   */
  tail?: boolean | 'newest-first';
}

/**
 * Sends one keyset page, oldest first, as HAL with self/first links, `next` only when more rows
 * exist now (the caller reads `limit + 1` to tell), and for a tailed log the `poll` link (all in
 * the `Link` header too). An empty page never links to itself as `next`.
 */
export function sendKeysetPage<T>(request: FastifyRequest, reply: FastifyReply, page: KeysetPage<T>) {
  const { limit, after, filters, limitGiven } = page.request;
  const { rows, items, json } = fitPage(page.rows.slice(0, limit), page.embed);
  const href = (position?: string) => {
    const s = new URLSearchParams(filters);
    if (limitGiven) s.set('limit', String(limit));
    if (position) s.set('cursor', Buffer.from(`${page.prefix}${position}`).toString('base64url'));
    return `${page.path}${s.size ? `?${s}` : ''}`;
  };
  const from = after === undefined ? undefined : String(after);
  const last = rows.at(-1);
  const links: Record<string, Link> = { self: { href: href(from) }, first: { href: href() } };
  // More exist when the store gave a row past `limit`, or when the byte bound cut the page short.
  if (last !== undefined && page.rows.length > rows.length) links.next = { href: href(page.position(last)) };
  if (page.tail === 'newest-first') links[POLL_REL] = { href: href() };
  else if (page.tail) links[POLL_REL] = { href: href(last === undefined ? from : page.position(last)) };
  reply.header('link', Object.entries(links).filter(([rel]) => rel !== 'self').map(([rel, l]) => `<${l.href}>; rel="${rel}"`).join(', '));
  const head = JSON.stringify({ _links: links, count: rows.length });
  const body = { _links: links, count: rows.length, _embedded: { [page.rel]: items } };
  return sendRepresentation(request, reply, 200, body, {}, `${head.slice(0, -1)},"_embedded":{${JSON.stringify(page.rel)}:[${json.join(',')}]}}`);
}

/**
 * The most JSON one page of a log carries (16 MiB): its entries (events carry whole records) are
 * taken in order until the next would cross it, at least one, and `next` goes on from there. A
 * page of a hundred large entries would otherwise be gigabytes, past what one string can hold.
 */
export const MAX_PAGE_BYTES = 16 * 1024 ** 2;

/** The first rows whose representations fit in MAX_PAGE_BYTES (at least one), each serialized once. */
function fitPage<T>(candidates: T[], embed: (row: T) => Record<string, unknown>): { rows: T[]; items: Record<string, unknown>[]; json: string[] } {
  const rows: T[] = [];
  const items: Record<string, unknown>[] = [];
  const json: string[] = [];
  let bytes = 0;
  for (const row of candidates) {
    const item = embed(row);
    const text = JSON.stringify(item);
    bytes += text.length;
    if (rows.length && bytes > MAX_PAGE_BYTES) break;
    rows.push(row);
    items.push(item);
    json.push(text);
  }
  return { rows, items, json };
}

/** {@link parseKeysetPage} for a log, whose positions are its sequence numbers (`prefix` tells one log's cursors from another's). */
export function parseLogPage(query: Record<string, unknown>, filterKeys: string[], prefix: string): LogPageRequest {
  const page = parseKeysetPage(query, filterKeys, { prefix, parse: (t) => (/^\d{1,15}$/.test(t) ? Number(t) : undefined) });
  return { ...page, after: page.after ?? 0 };
}

/** {@link sendKeysetPage} for a log, positioned by `seq`, with its `poll` link; `rows` should hold `limit + 1` when that many exist. */
export function sendLogPage<T extends { seq: number }>(
  request: FastifyRequest,
  reply: FastifyReply,
  page: { path: string; prefix: string; rel: string; request: LogPageRequest; rows: T[]; embed: (row: T) => Record<string, unknown> },
) {
  // Position 0 is "from the start", which a cursor never names.
  const { after } = page.request;
  return sendKeysetPage(request, reply, { ...page, request: { ...page.request, after: after || undefined }, position: (row) => String(row.seq), tail: true });
}

function bad(message: string): BadRequestError {
  return new BadRequestError('invalid-query', message);
}
