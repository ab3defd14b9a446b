import type { FastifyReply, FastifyRequest } from 'fastify';
import { etagOf } from '../../core/record.js';
import type { ResourceDefinition } from '../../core/resource.js';
import { notModified } from '../../http/conditional.js';
import type { HttpContext } from '../../http/context.js';
import { httpDateOf, sendNotModified } from '../../http/respond.js';
import type { RawQuery } from '../../resources/http/query-dialect.js';
import { notFound, recordId, visible } from '../../resources/http/record-request.js';
import { withEmbeds } from './embed.js';
import { parseJsonServerExpand } from './list-request.js';
import { plainJsonOf, recordLinkHeader, sendJson } from './plain-shape.js';

/**
 * `GET|HEAD /{collection}/{id}` as json-server answers it: the bare record (with `_expand` and
 * `_embed`), its links in the `Link` header; ETag and Last-Modified, and 304 for a current copy.
 */
export function readJsonServer(ctx: HttpContext, resource: ResourceDefinition) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const expand = parseJsonServerExpand(resource, request.query as RawQuery, ctx.resources);
    const id = recordId(request, resource);
    const record = visible(request, await ctx.store.get(resource, id));
    if (!record) throw notFound(resource, id);
    const link = recordLinkHeader(resource, record);
    if (expand.length) return sendJson(reply, 200, JSON.stringify((await withEmbeds(ctx, request, resource, [record], expand))[0]), { link });
    const etag = etagOf(record);
    reply.header('etag', etag).header('last-modified', httpDateOf(record.updatedAt)).header('link', link);
    if (notModified(request, etag)) return sendNotModified(request, reply);
    return sendJson(reply, 200, plainJsonOf(resource, record));
  };
}
