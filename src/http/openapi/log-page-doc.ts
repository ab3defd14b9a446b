import { DEFAULT_LIMIT, MAX_LIMIT } from '../page-size.js';
import type { Json } from './components.js';
import { header } from './headers.js';
import { representations } from './representations.js';
import { linksSchema, type SchemaContext } from './schemas.js';

/** `limit` and `cursor`, the paging parameters of every append-only log (the event log, a webhook inbox). */
export function logPageParameters(noun: string): Json[] {
  return [
    { name: 'limit', in: 'query', description: `${noun} per page.`, schema: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT } },
    { name: 'cursor', in: 'query', description: 'Opaque log position from a next link. Empty: the first page.', schema: { type: 'string' } },
  ];
}

/** The 200 of a log page: `count`, `_embedded[key]` and links whose `next` is always present (the log grows). */
export function logPageResponse(ctx: SchemaContext, description: string, key: string, item: Json): Json {
  return {
    description,
    headers: { Link: header(ctx, 'link') },
    content: representations({
      type: 'object',
      required: ['_links', 'count', '_embedded'],
      properties: {
        _links: linksSchema(ctx, ['self', 'first', 'next'], ['self', 'first', 'next'], 'next is always present (the log grows)'),
        count: { type: 'integer', minimum: 0 },
        _embedded: { type: 'object', required: [key], properties: { [key]: { type: 'array', items: item } } },
      },
    }),
  };
}
