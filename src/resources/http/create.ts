import type { FastifyReply, FastifyRequest } from 'fastify';
import { BadRequestError } from '../../core/errors.js';
import { etagOf } from '../../core/record.js';
import type { ResourceDefinition } from '../../core/resource.js';
import type { HttpContext } from '../../http/context.js';
import { halRecord, recordPath } from '../../http/hal.js';
import { sendRepresentation } from '../../http/respond.js';

/** `POST /{collection}`: validates, creates with a server-chosen id, 201 + Location + ETag. */
export function createRecord(ctx: HttpContext, resource: ResourceDefinition) {
  const validator = ctx.validators.get(resource.name)!;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.body === undefined) throw new BadRequestError('malformed-body', `POST needs a JSON body with the fields of ${resource.name}`);
    const data = validator.prepare(request.body);
    const record = await ctx.store.insert(resource, data, { owner: request.subject ?? null, idempotency: request.idempotencyClaim });
    const location = recordPath(resource, record.id);
    return sendRepresentation(request, reply, 201, halRecord(resource, record), { etag: etagOf(record), location, lastModified: record.updatedAt });
  };
}
