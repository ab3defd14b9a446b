import type { FastifyReply, FastifyRequest } from 'fastify';
import { BadRequestError } from '../../core/errors.js';
import type { ResourceDefinition } from '../../core/resource.js';
import type { HttpContext } from '../../http/context.js';
import { recordPath } from '../../http/hal.js';
import { checkWritePreconditions } from './blind-write.js';
import { mayRead, notFound, readableBy, recordId, visible } from './record-request.js';
import { HAL_SHAPE, type RecordShape } from './record-shape.js';
import { handledBody, sendWritten } from './write-response.js';

/**
 * `PUT /{collection}/{id}`: replaces the record (200) or creates it at this id (201); a writer that
 * may not read the record gets 204, or 201 with only Location (see sendWritten). Idempotent:
 * the same body twice leaves one state and one version. `If-Match` guards against lost updates;
 * `If-None-Match: *` makes it create-only.
 */
export function replaceRecord(ctx: HttpContext, resource: ResourceDefinition, shape: RecordShape = HAL_SHAPE) {
  const validator = ctx.validators.get(resource.name)!;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const id = recordId(request, resource, true);
    if (request.body === undefined) throw new BadRequestError('malformed-body', `PUT needs the full JSON representation of the ${resource.name} record`);
    const result = await ctx.store.mutate(
      resource,
      id,
      (current) => {
        // Another subject's record under an `owner` rule: the id is taken, but not visible.
        if (current && !visible(request, current)) throw notFound(resource, id);
        const blind = current !== undefined && !mayRead(request, resource, current);
        checkWritePreconditions(request, resource, current, blind);
        return { put: validator.prepare(handledBody(request, reply, validator, shape.input(request.body), shape), current, id, blind) };
      },
      { owner: request.subject ?? null, readable: readableBy(request, ctx.resources) },
    );
    const record = result.record!;
    const created = result.outcome === 'created';
    return sendWritten(request, reply, resource, record, created, created ? recordPath(resource, record.id) : undefined, shape);
  };
}
