import type { FastifyReply, FastifyRequest } from 'fastify';
import { BadRequestError } from '../../core/errors.js';
import type { ResourceDefinition } from '../../core/resource.js';
import type { HttpContext } from '../../http/context.js';
import { recordPath } from '../../http/hal.js';
import { readableBy } from './record-request.js';
import { HAL_SHAPE, type RecordShape } from './record-shape.js';
import { handledBody, sendWritten } from './write-response.js';

/**
 * `POST /{collection}`: validates, creates with a server-chosen id, 201 + Location + ETag and the
 * record (only Location for a writer that may not read it: see sendWritten).
 */
export function createRecord(ctx: HttpContext, resource: ResourceDefinition, shape: RecordShape = HAL_SHAPE) {
  const validator = ctx.validators.get(resource.name)!;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.body === undefined) throw new BadRequestError('malformed-body', `POST needs a JSON body with the fields of ${resource.name}`);
    const data = validator.prepare(handledBody(request, reply, validator, shape.input(request.body), shape));
    const readable = readableBy(request, ctx.resources);
    const record = await ctx.store.insert(resource, data, { owner: request.subject ?? null, idempotency: request.idempotencyClaim, readable });
    return sendWritten(request, reply, resource, record, true, recordPath(resource, record.id), shape);
  };
}
