import type { FastifyReply, FastifyRequest } from 'fastify';
import type { StoredRecord } from '../../core/record.js';
import type { ResourceDefinition } from '../../core/resource.js';
import type { HttpContext } from '../../http/context.js';
import { linkHeader, type Link } from '../../http/hal.js';
import { sendRepresentation } from '../../http/respond.js';
import { fitListPage, pageBody } from './list-body.js';
import { parseExpand, varyForExpand } from './expand.js';
import { expandedItem, loadExpansions } from './expand-load.js';
import { encodeCursor, parseListParams, type ListParams } from './list-params.js';
import { NATIVE_QUERY, type QueryDialect } from './query-dialect.js';

/**
 * `GET|HEAD /{collection}`: a filtered, sorted page with first/next/prev links (HAL and `Link`),
 * each record with its expansions when `expand=` asks (another API's parameters translated first: see QueryDialect).
 */
export function listRecords(ctx: HttpContext, resource: ResourceDefinition, dialect: QueryDialect = NATIVE_QUERY) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const raw = dialect.list(resource, request.query as Record<string, string | string[]>, ctx.resources) as Record<string, string | string[]>;
    const params = parseListParams(resource, raw, ctx.resources);
    const nodes = params.expand.length ? parseExpand(resource, params.expand, ctx.resources, request) : [];
    const found = await ctx.store.list(resource, request.visibleOwner === undefined ? params.query : { ...params.query, owner: request.visibleOwner });
    const page = fitListPage(resource, found, ctx.config.server.recordLimit, params.query.after?.backwards ?? false);
    const links = pageLinks(resource, raw, params, page.records, page.hasMore);
    let items: Record<string, unknown>[] | undefined;
    if (nodes.length) {
      const loaded = await loadExpansions(ctx.store, resource, page.records, nodes, ctx.config.server.recordLimit);
      items = page.records.map((r) => expandedItem(resource, r, nodes, loaded, params.fields));
      varyForExpand(reply, nodes);
    }
    const { body, json } = pageBody(resource, page, links, params.fields, items);
    const { self: _self, ...navigation } = links;
    const link = linkHeader(navigation);
    return sendRepresentation(request, reply, 200, body, { link: link || undefined }, json);
  };
}

function pageLinks(resource: ResourceDefinition, raw: Record<string, string | string[]>, params: ListParams, records: StoredRecord[], hasMore: boolean): Record<string, Link> {
  // Every link of the page is the request's query less its cursor, plus the link's own cursor last:
  // the shared part is encoded once.
  const base = new URLSearchParams(Object.entries(raw).flatMap(([k, v]) => (k === 'cursor' ? [] : [v].flat().map((x) => [k, x] as [string, string])))).toString();
  const href = (cursor?: string) => {
    const own = cursor ? new URLSearchParams({ cursor }).toString() : '';
    const s = base && own ? `${base}&${own}` : base || own;
    return `/${resource.name}${s ? `?${s}` : ''}`;
  };
  const after = params.query.after;
  const backwards = after?.backwards ?? false;
  const links: Record<string, Link> = { self: { href: href(raw.cursor as string | undefined) }, first: { href: href() } };
  const position = (r: StoredRecord) => [...params.query.sort.map((k) => valueOf(r, k.field)), r.id];
  const last = records.at(-1);
  const first = records[0];
  if (last && (backwards || hasMore)) links.next = { href: href(encodeCursor(position(last), params.sortText, false)) };
  if (first && (backwards ? hasMore : after !== undefined)) links.prev = { href: href(encodeCursor(position(first), params.sortText, true)) };
  return links;
}

function valueOf(record: StoredRecord, field: string): unknown {
  if (field === 'id' || field === 'createdAt' || field === 'updatedAt') return record[field];
  return record.data[field];
}
