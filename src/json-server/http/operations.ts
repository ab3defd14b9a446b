import type { ResourceDefinition } from '../../core/resource.js';
import type { Json } from '../../http/openapi/components.js';
import { header } from '../../http/openapi/headers.js';
import type { OperationDoc } from '../../http/openapi/operation-doc.js';
import { pascal } from '../../http/openapi/components.js';
import { idSchema, pageSchema, plainRecordSchema, recordSchema, type SchemaContext } from '../../http/openapi/schemas.js';
import { bodySchema } from '../../core/field-schema.js';
import { RECORD_OPERATIONS } from '../../resources/http/record-operations.js';
import { LIST_CAP } from './list-request.js';

/** The record operations, and `set`: POST to a singular resource, which sets its object (201). */
type Kind = 'list' | 'create' | 'read' | 'replace' | 'patch' | 'delete' | 'set';

const query = (name: string, description: string, schema: Json = { type: 'string' }): Json => ({ name, in: 'query', required: false, description, schema });
const count = { type: 'integer', minimum: 0 };

/** json-server's list parameters, as the profile reads them (the README's json-server profile lists them all). */
const LIST_PARAMETERS = [
  query('_page', 'Page number (from 1) of _limit records each; adds X-Total-Count and Link first/prev/next/last', count),
  query('_limit', `Records per page with _page (default 10), or the first N (after _start); at most ${LIST_CAP}`, count),
  query('_per_page', "json-server 1's paging: answers {first, prev, next, last, pages, items, data}", { type: 'integer', minimum: 1 }),
  query('_start', 'Offset of the first record (with _end or _limit)', count),
  query('_end', 'Offset after the last record (with _start)', count),
  query('_sort', 'Fields to sort by, comma-separated; -field (json-server 1) sorts descending'),
  query('_order', 'asc or desc per _sort field, comma-separated'),
  query('_embed', 'Collections referencing each record (all of them, under their name); or json-server 1\'s forward name'),
  query('_expand', 'Reference to embed, by its name without Id (user for userId)'),
  query('q', 'Case-insensitive text in any search field'),
];

/**
 * What POST and PUT take on the profile: the fields, the id a POST may choose, and the members the
 * server sets, which a front-end sends back as it read them and which are ignored.
 */
function inputSchema(r: ResourceDefinition, ctx: SchemaContext): Json {
  return ctx.components.schema(`json-server-input:${r.name}`, `${pascal(r.name)}JsonServerInput`, () => {
    const base = bodySchema(r, [...ctx.resources.values()]);
    const ignored = { description: 'Set by the server: ignored' };
    const id = r.singular ? {} : { id: { ...idSchema(r), description: "POST: the new record's id (json-server lets a front-end choose it); PUT: the URL's" } };
    return { ...base, properties: { ...id, ...(base.properties as Json), version: ignored, createdAt: ignored, updatedAt: ignored } };
  });
}

/** A read's: what it embeds. */
const READ_PARAMETERS = LIST_PARAMETERS.filter((p) => p.name === '_embed' || p.name === '_expand');

/** The pages object json-server 1 answers for `_per_page`. */
const pagesSchema = (item: Json): Json => ({
  type: 'object',
  required: ['first', 'prev', 'next', 'last', 'pages', 'items', 'data'],
  properties: {
    first: { type: 'integer' },
    prev: { type: ['integer', 'null'] },
    next: { type: ['integer', 'null'] },
    last: { type: 'integer' },
    pages: { type: 'integer' },
    items: { type: 'integer' },
    data: { type: 'array', items: item },
  },
});

/**
 * The OpenAPI documentation of a json-server-shaped operation: the HAL operation's (parameters,
 * bodies, problems), with json-server's bodies (bare records, a bare array) and answers in place.
 */
export function jsonServerOperation(kind: Kind, r: ResourceDefinition): (ctx: SchemaContext) => OperationDoc {
  return (ctx) => {
    const json = (schema: Json) => ({ 'application/json': { schema } });
    // A client that asks for application/hal+json gets Restwell's HAL API instead (routes.ts halToo).
    const withHal = (schema: Json, hal: () => Json) => ({ ...json(schema), 'application/hal+json': { schema: hal() } });
    const plain = () => plainRecordSchema(r, ctx);
    if (kind === 'list') {
      return {
        description: `${r.name} as json-server lists them: a bare array (every record up to ${LIST_CAP} without a limit), filtered with field=value, field_gte/_lte/_gt/_lt/_ne/_like, q.`,
        parameters: LIST_PARAMETERS,
        responses: {
          '200': {
            description: `The ${r.name} records`,
            headers: { 'X-Total-Count': { description: 'Every matching record, when the list is cut (_page, _limit, _end)', schema: count }, Link: header(ctx, 'link', false) },
            content: withHal({ oneOf: [{ type: 'array', items: plain() }, pagesSchema(plain())] }, () => pageSchema(r, ctx)),
          },
        },
        problems: ['invalid-query', 'expand-forbidden', 'unavailable', 'not-found'],
      };
    }
    // Every answer with a record carries it bare, and only as JSON (json-server has no other representation).
    // No Vary: the answer is JSON whatever the Accept; an expanded read has no ETag, and Link is Restwell's.
    const headers = () => ({ ETag: header(ctx, 'etag', false), 'Last-Modified': header(ctx, 'last-modified', false), Link: header(ctx, 'link', false) });
    const content = () => (kind === 'set' ? json(plain()) : withHal(plain(), () => recordSchema(r, ctx)));
    const hal = RECORD_OPERATIONS[kind === 'set' ? 'replace' : kind]!(r, ctx, { content, readParameters: () => READ_PARAMETERS, headers, input: inputSchema });
    switch (kind) {
      case 'create':
        return { ...hal, description: `${hal.description} The body may name the id (409 id-taken when a record has it).`, problems: [...hal.problems, 'id-taken', 'invalid-id'] };
      case 'patch': {
        const body = hal.requestBody as { content: Record<string, Json> };
        const description = `${hal.description} Plain application/json is json-server's shallow merge: its top-level members replace the record's.`;
        return { ...hal, description, requestBody: { ...body, content: { 'application/json': body.content['application/merge-patch+json'], ...body.content } } };
      }
      case 'set': {
        const { '201': created } = hal.responses as Record<string, Json>;
        return { ...hal, description: `Sets the ${r.name} object, whole, whether or not it was set, and answers 201 as json-server does.`, responses: { '201': created! }, problemHeaders: { 415: { 'Accept-Post': header(ctx, 'accept-post') } } };
      }
      case 'delete':
        return { ...hal, description: `${hal.description} Records referencing it go with it, as in json-server.`, responses: { '200': { description: 'Deleted', content: json({ type: 'object', maxProperties: 0 }) }, '204': { description: 'Deleted, to a client that asks for application/hal+json' } } };
      default:
        return hal;
    }
  };
}
