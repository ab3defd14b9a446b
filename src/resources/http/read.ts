import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ResourceDefinition } from '../../core/resource.js';
import type { HttpContext } from '../../http/context.js';
import { readStatus } from '../../http/conditional.js';
import { recordRepresentation } from '../../http/hal.js';
import { sendRepresentation } from '../../http/respond.js';
import { notFound, recordId, visible } from './record-request.js';

/**
 * `GET|HEAD /{collection}/{id}`: 200 with ETag and Last-Modified; 304 or 412 as its preconditions
 * say. A 304 has the 200's headers, as RFC 9110 §15.4.5 asks of ETag and Vary.
 */
export function readRecord(ctx: HttpContext, resource: ResourceDefinition) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const id = recordId(request, resource);
    const record = visible(request, await ctx.store.get(resource, id));
    if (!record) throw notFound(resource, id);
    const rep = recordRepresentation(resource, record);
    return sendRepresentation(request, reply, readStatus(request, record), rep.body, { etag: rep.etag, lastModified: record.updatedAt }, rep.json);
  };
}
