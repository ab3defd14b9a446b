import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ResourceDefinition } from '../../core/resource.js';
import type { HttpContext } from '../../http/context.js';
import { recordId } from './record-request.js';
import { HAL_SHAPE, type RecordShape } from './record-shape.js';
import { deleteWrite } from './record-writes.js';
import { runMutate } from './run-write.js';

/** `DELETE /{collection}/{id}`: 204 (or what `shape` answers); a second DELETE finds nothing (404). Honours If-Match. */
export function deleteRecord(ctx: HttpContext, resource: ResourceDefinition, shape: RecordShape = HAL_SHAPE) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const id = recordId(request, resource);
    await runMutate(ctx, deleteWrite(resource, id, request, shape.dependents?.(request, ctx.resources)));
    return shape.deleted(reply);
  };
}
