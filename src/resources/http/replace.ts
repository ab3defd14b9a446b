import type { FastifyReply, FastifyRequest } from 'fastify';
import { BadRequestError } from '../../core/errors.js';
import { etagOf } from '../../core/record.js';
import type { ResourceDefinition } from '../../core/resource.js';
import type { HttpContext } from '../../http/context.js';
import { checkPreconditions } from '../../http/conditional.js';
import { halRecord, recordPath } from '../../http/hal.js';
import { sendRepresentation } from '../../http/respond.js';
import { notFound, recordId, visible } from './record-request.js';

/**
 * `PUT /{collection}/{id}`: replaces the record (200) or creates it at this id (201). Idempotent:
 * the same body twice leaves one state and one version. `If-Match` guards against lost updates;
 * `If-None-Match: *` makes it create-only.
 */
export function replaceRecord(ctx: HttpContext, resource: ResourceDefinition) {
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
        checkPreconditions(request.headers, current, resource.requireIfMatch);
        return { put: validator.prepare(request.body, current, id) };
      },
      { owner: request.subject ?? null },
    );
    const record = result.record!;
    const created = result.outcome === 'created';
    return sendRepresentation(request, reply, created ? 201 : 200, halRecord(resource, record), {
      etag: etagOf(record),
      location: created ? recordPath(resource, record.id) : undefined,
      lastModified: record.updatedAt,
    });
  };
}
