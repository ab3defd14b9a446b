import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ResourceDefinition } from '../../core/resource.js';
import type { HttpContext } from '../../http/context.js';
import { etagOnlyStatus, readStatus } from '../../http/conditional.js';
import { recordRepresentation } from '../../http/hal.js';
import { sendRepresentation } from '../../http/respond.js';
import { parseExpand, varyForExpand } from './expand.js';
import { expandedBody, expandedEtag, loadExpansions } from './expand-load.js';
import { NATIVE_QUERY, type QueryDialect } from './query-dialect.js';
import { notFound, recordId, visible } from './record-request.js';

/**
 * `GET|HEAD /{collection}/{id}`: 200 with ETag and Last-Modified; 304 or 412 as its preconditions
 * say. A 304 has the 200's headers, as RFC 9110 §15.4.5 asks of ETag and Vary. With `expand=`,
 * the embedded records are part of the representation and of its ETag (see expandedEtag).
 */
export function readRecord(ctx: HttpContext, resource: ResourceDefinition, dialect: QueryDialect = NATIVE_QUERY) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const expand = dialect.readExpand(resource, request.query as Record<string, string | string[] | undefined>, ctx.resources);
    const nodes = expand.length ? parseExpand(resource, expand, ctx.resources, request) : [];
    const id = recordId(request, resource);
    const record = visible(request, await ctx.store.get(resource, id));
    if (!record) throw notFound(resource, id);
    if (!nodes.length) {
      const rep = recordRepresentation(resource, record);
      return settled(sendRepresentation(request, reply, readStatus(request, record), rep.body, { etag: rep.etag, lastModified: record.updatedAt }, rep.json));
    }
    const body = expandedBody(resource, record, nodes, await loadExpansions(ctx.store, resource, [record], nodes, ctx.config.server.recordLimit));
    const json = JSON.stringify(body);
    const etag = expandedEtag(json);
    varyForExpand(reply, nodes);
    return settled(sendRepresentation(request, reply, etagOnlyStatus(request, etag, 'expanded representation: it or a record it embeds has changed'), body, { etag }, json));
  };
}

/**
 * What the handler's promise resolves to: nothing once the reply is written, else the reply for
 * Fastify to wait on. A reply is a thenable, so resolving an async function's promise with it costs
 * a job of its own and a call of `reply.then` on every read, for a reply already sent.
 */
function settled(reply: FastifyReply): FastifyReply | undefined {
  return reply.sent ? undefined : reply;
}
