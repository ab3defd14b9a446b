import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ResourceDefinition } from '../../core/resource.js';
import type { HttpContext } from '../../http/context.js';
import { recordId } from './record-request.js';
import { HAL_SHAPE, type RecordShape } from './record-shape.js';
import { isJsonPatch, patchWrite, requestCall } from './record-writes.js';
import { lenientHandling, sendWritten } from './write-response.js';
import { runMutate } from './run-write.js';

/**
 * `PATCH /{collection}/{id}`: applies a merge patch (RFC 7396) or a JSON Patch (RFC 6902) to the
 * current representation and validates the result, all inside the write transaction, so the
 * patch is atomic and cannot interleave with another write. A writer that may not read the record
 * gets 204, and may not send what would read it (blind-write.ts). A result larger than a record may
 * be is a 413 (record-too-large), a JSON Patch stopped at the operation that would cross the limit.
 */
export function patchRecord(ctx: HttpContext, resource: ResourceDefinition, shape: RecordShape = HAL_SHAPE) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const id = recordId(request, resource);
    const result = await runMutate(ctx, patchWrite(ctx, resource, id, requestCall(request, !isJsonPatch(request.headers) && lenientHandling(request, reply, shape)), shape), request.idempotencyClaim);
    return sendWritten(request, reply, resource, result.record!, false, undefined, shape);
  };
}
