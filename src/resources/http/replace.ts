import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ResourceDefinition } from '../../core/resource.js';
import type { HttpContext } from '../../http/context.js';
import { recordPath } from '../../http/hal.js';
import { recordId } from './record-request.js';
import { HAL_SHAPE, type RecordShape } from './record-shape.js';
import { replaceWrite, requestCall } from './record-writes.js';
import { lenientHandling, sendWritten } from './write-response.js';
import { runMutate } from './run-write.js';

/**
 * `PUT /{collection}/{id}`: replaces the record (200) or creates it at this id (201); a writer that
 * may not read the record gets 204, or 201 with only Location (see sendWritten). Idempotent:
 * the same body twice leaves one state and one version. `If-Match` guards against lost updates;
 * `If-None-Match: *` makes it create-only.
 */
export function replaceRecord(ctx: HttpContext, resource: ResourceDefinition, shape: RecordShape = HAL_SHAPE) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const id = recordId(request, resource, true);
    const result = await runMutate(ctx, replaceWrite(ctx, resource, id, requestCall(request, lenientHandling(request, reply, shape)), shape));
    const record = result.record!;
    const created = result.outcome === 'created';
    return sendWritten(request, reply, resource, record, created, created ? recordPath(resource, record.id) : undefined, shape);
  };
}
