import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ResourceDefinition } from '../../core/resource.js';
import type { HttpContext } from '../../http/context.js';
import { recordPath } from '../../http/hal.js';
import { createMany } from './bulk-create.js';
import { HAL_SHAPE, type RecordShape } from './record-shape.js';
import { createWrite, requestCall } from './record-writes.js';
import { lenientHandling, sendWritten } from './write-response.js';

/**
 * `POST /{collection}`: validates, creates with a server-chosen id, 201 + Location + ETag and the
 * record (only Location for a writer that may not read it: see sendWritten). A JSON array creates
 * one record per item, all in one transaction (bulk-create.ts).
 */
export function createRecord(ctx: HttpContext, resource: ResourceDefinition, shape: RecordShape = HAL_SHAPE) {
  const many = shape === HAL_SHAPE ? createMany(ctx, resource) : undefined;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (many && Array.isArray(request.body)) return many(request, reply);
    const op = createWrite(ctx, resource, requestCall(request, lenientHandling(request, reply, shape)), shape);
    if (op.kind !== 'insert') throw new Error('a create prepares an insert');
    const record = await ctx.store.insert(resource, op.data, { ...op.options, idempotency: request.idempotencyClaim });
    return sendWritten(request, reply, resource, record, true, recordPath(resource, record.id), shape);
  };
}
