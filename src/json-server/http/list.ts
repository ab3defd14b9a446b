import type { FastifyReply, FastifyRequest } from 'fastify';
import { BadRequestError } from '../../core/errors.js';
import type { ResourceDefinition } from '../../core/resource.js';
import type { HttpContext } from '../../http/context.js';
import { baseUrl } from '../../http/problems.js';
import type { RawQuery } from '../../resources/http/query-dialect.js';
import { fitListPage } from '../../resources/http/list-body.js';
import type { Filter, ListQuery, Page } from '../../store/list-query.js';
import { withEmbeds } from './embed.js';
import { LIST_CAP, parseJsonServerList, type JsonServerList } from './list-request.js';
import { pageLinks } from './page-links.js';
import { plainJsonOf, sendJson } from './plain-shape.js';

/**
 * `GET|HEAD /{collection}` as json-server answers it: a bare array (or, for json-server 1's
 * `_per_page`, its pages object); `X-Total-Count` when the list is cut (`_page`, `_limit`, `_end`);
 * `Link` first/prev/next/last for `_page`. Without a limit, the whole collection up to LIST_CAP
 * records, and past that a 400 that says how to page. `scope` narrows it to the records of one
 * parent (`/posts/1/comments`).
 */
export function listJsonServer(ctx: HttpContext, resource: ResourceDefinition, scope?: (request: FastifyRequest) => Filter) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const raw = request.query as RawQuery;
    const list = parseJsonServerList(resource, raw, ctx.resources);
    const { query, paging } = list;
    if (scope) query.filters.push(scope(request));
    if (request.visibleOwner !== undefined) query.owner = request.visibleOwner;
    switch (paging.kind) {
      case 'all': {
        const page = await fetchPage(ctx, resource, { ...query, limit: LIST_CAP });
        if (page.hasMore) throw bad(`more than ${LIST_CAP} ${resource.name} records match, and a list without _limit sends at most ${LIST_CAP}; page through them with _page=1&_limit=100 (X-Total-Count gives the total, the Link header the next page)`);
        return sendJson(reply, 200, await itemsJson(ctx, request, resource, page, list));
      }
      case 'slice': {
        const page = await fetchPage(ctx, resource, { ...query, limit: paging.limit, offset: paging.offset, withTotal: true });
        exposeTotal(reply, page, false);
        return sendJson(reply, 200, await itemsJson(ctx, request, resource, page, list));
      }
      case 'page': {
        const page = await fetchPage(ctx, resource, { ...query, limit: paging.limit, offset: (paging.page - 1) * paging.limit, withTotal: true });
        exposeTotal(reply, page, true);
        const link = pageLinks(`${baseUrl(request)}${request.url}`, paging.page, paging.limit, page.records.length, page.total!);
        if (link) reply.header('link', link);
        return sendJson(reply, 200, await itemsJson(ctx, request, resource, page, list));
      }
      case 'pages': {
        let page = await fetchPage(ctx, resource, { ...query, limit: paging.limit, offset: (paging.page - 1) * paging.limit, withTotal: true });
        const pages = Math.ceil(page.total! / paging.limit);
        // json-server 1 answers a page past the last with the last.
        const current = Math.max(1, Math.min(paging.page, pages));
        if (current !== paging.page) page = await fetchPage(ctx, resource, { ...query, limit: paging.limit, offset: (current - 1) * paging.limit, withTotal: true });
        const head = { first: 1, prev: current > 1 ? current - 1 : null, next: current < pages ? current + 1 : null, last: pages, pages, items: page.total };
        const data = await itemsJson(ctx, request, resource, page, list);
        return sendJson(reply, 200, `${JSON.stringify(head).slice(0, -1)},"data":${data}}`);
      }
    }
  };
}

/** One page from the store; `limit: 0` (json-server's `_limit=0`) only counts. */
async function fetchPage(ctx: HttpContext, resource: ResourceDefinition, query: ListQuery): Promise<Page> {
  if (query.limit > 0) return ctx.store.list(resource, query);
  const counted = await ctx.store.list(resource, { ...query, limit: 1, offset: undefined });
  return { records: [], hasMore: counted.records.length > 0, total: counted.total };
}

/** The page's records as a JSON array, with their `_embed`/`_expand`; too large a page is a 400, never a truncated list. */
async function itemsJson(ctx: HttpContext, request: FastifyRequest, resource: ResourceDefinition, page: Page, list: JsonServerList): Promise<string> {
  if (fitListPage(resource, page, ctx.config.server.recordLimit, false).records.length < page.records.length) {
    throw bad(`these ${page.records.length} ${resource.name} records are more than one response carries (64 MiB of JSON); ask for fewer with _page and _limit`);
  }
  if (list.expand.length) return JSON.stringify(await withEmbeds(ctx, request, resource, page.records, list.expand));
  return `[${page.records.map((r) => plainJsonOf(resource, r)).join(',')}]`;
}

/** json-server's `X-Total-Count`, exposed to scripts of other origins (with `Link` when pages are numbered). */
function exposeTotal(reply: FastifyReply, page: Page, numbered: boolean): void {
  reply.header('x-total-count', String(page.total));
  reply.header('access-control-expose-headers', numbered ? 'X-Total-Count, Link' : 'X-Total-Count');
}

function bad(message: string): BadRequestError {
  return new BadRequestError('invalid-query', message);
}
