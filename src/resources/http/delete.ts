import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ResourceDefinition } from '../../core/resource.js';
import type { HttpContext } from '../../http/context.js';
import { checkWritePreconditions } from './blind-write.js';
import { mayRead, notFound, recordId, visible } from './record-request.js';
import { HAL_SHAPE, type RecordShape } from './record-shape.js';

/** `DELETE /{collection}/{id}`: 204 (or what `shape` answers); a second DELETE finds nothing (404). Honours If-Match. */
export function deleteRecord(ctx: HttpContext, resource: ResourceDefinition, shape: RecordShape = HAL_SHAPE) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const id = recordId(request, resource);
    await ctx.store.mutate(resource, id, (current) => {
      if (!current || !visible(request, current)) throw notFound(resource, id);
      checkWritePreconditions(request, resource, current, !mayRead(request, resource, current));
      return { delete: true };
    }, { cascade: shape.dependents?.(request, ctx.resources) });
    return shape.deleted(reply);
  };
}
