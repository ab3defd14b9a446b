import { DEFAULT_LIMIT, MAX_LIMIT } from '../page-size.js';
import type { Json } from './components.js';
import { header } from './headers.js';
import { representations } from './representations.js';
import { linksSchema, type SchemaContext } from './schemas.js';

/** `limit` and `cursor`, the paging parameters of every keyset listing; `tail` for a log, whose cursors also come from `poll`. */
export function logPageParameters(noun: string, tail = true): Json[] {
  return [
    { name: 'limit', in: 'query', description: `${noun} per page.`, schema: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT } },
    { name: 'cursor', in: 'query', description: tail ? 'Opaque position from a next or poll link. Empty: the first page.' : 'Opaque position from a next link. Empty: the first page.', schema: { type: 'string' } },
  ];
}

/**
 * How every tailed log pages, in words for an operation's description: `next` only while more entries
 * exist now, `poll` always, for entries added later.
 */
export const LOG_PAGING_RULE =
  'The `next` link is present only while more entries exist now, so a client that follows `next` until it is absent stops at the end. ' +
  'The `poll` link is always present: the position just after this page (on an empty page, this page itself). A reader that reached the end ' +
  'stores it and GETs it later to read the entries added since, without missing or repeating one.';

/**
 * The 200 of a keyset page: `count`, `_embedded[key]`, `self` and `first` always, `next` while more
 * entries exist now; with `tail` (a log that readers follow) the `poll` link as well, always present.
 */
export function logPageResponse(ctx: SchemaContext, description: string, key: string, item: Json, tail = true): Json {
  const rels = tail ? ['self', 'first', 'next', 'poll'] : ['self', 'first', 'next'];
  const required = tail ? ['self', 'first', 'poll'] : ['self', 'first'];
  const linkText = tail
    ? 'next is present only when more entries exist now; poll is always present, for entries added later'
    : 'next is present only when more entries exist now';
  return {
    description,
    headers: { Link: header(ctx, 'link') },
    content: representations({
      type: 'object',
      required: ['_links', 'count', '_embedded'],
      properties: {
        _links: linksSchema(ctx, rels, required, linkText),
        count: { type: 'integer', minimum: 0 },
        _embedded: { type: 'object', required: [key], properties: { [key]: { type: 'array', items: item } } },
      },
    }),
  };
}
