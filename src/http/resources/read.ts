import type { FastifyReply, FastifyRequest } from 'fastify';
import { etagOf } from '../../core/record.js';
import type { ResourceDefinition } from '../../core/resource.js';
import type { AppContext } from '../context.js';
import { notModified } from '../conditional.js';
import { halRecord } from '../hal.js';
import { sendRepresentation } from '../respond.js';
import { notFound, recordId, visible } from './record-request.js';

/** `GET|HEAD /{collection}/{id}`: 200 with ETag, or 304 when If-None-Match matches. */
export function readRecord(ctx: AppContext, resource: ResourceDefinition) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const id = recordId(request, resource);
    const record = visible(request, await ctx.store.get(resource, id));
    if (!record) throw notFound(resource, id);
    const etag = etagOf(record);
    if (notModified(request, etag)) return reply.code(304).header('etag', etag).header('vary', 'Accept').send();
    return sendRepresentation(request, reply, 200, halRecord(resource, record), { etag, lastModified: record.updatedAt });
  };
}
