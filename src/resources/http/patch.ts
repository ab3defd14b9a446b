import type { FastifyReply, FastifyRequest } from 'fastify';
import { BadRequestError } from '../../core/errors.js';
import { applyJsonPatch } from '../../core/json-patch.js';
import { applyMergePatch } from '../../core/merge-patch.js';
import type { ResourceDefinition } from '../../core/resource.js';
import type { HttpContext } from '../../http/context.js';
import { PATCH_TYPES } from '../../http/body-types.js';
import { checkWritePreconditions, patchTarget, refuseStoredReads } from './blind-write.js';
import { mayRead, notFound, readableBy, recordId, visible } from './record-request.js';
import { sendWritten } from './write-response.js';

/**
 * `PATCH /{collection}/{id}`: applies a merge patch (RFC 7396) or a JSON Patch (RFC 6902) to the
 * current representation and validates the result, all inside the write transaction, so the
 * patch is atomic and cannot interleave with another write. A writer that may not read the record
 * gets 204, and may not send what would read it (blind-write.ts).
 */
export function patchRecord(ctx: HttpContext, resource: ResourceDefinition) {
  const validator = ctx.validators.get(resource.name)!;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const id = recordId(request, resource);
    const kind = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (request.body === undefined) throw new BadRequestError('invalid-patch', 'PATCH needs a patch document in the body');
    const jsonPatch = kind === PATCH_TYPES[1];
    const apply = jsonPatch ? applyJsonPatch : applyMergePatch;
    const result = await ctx.store.mutate(resource, id, (current) => {
      if (!current || !visible(request, current)) throw notFound(resource, id);
      const blind = !mayRead(request, resource, current);
      checkWritePreconditions(request, resource, current, blind);
      if (blind && jsonPatch) refuseStoredReads(resource, request.body);
      return { put: validator.prepare(apply(patchTarget(current, blind), request.body), current, id, blind) };
    }, { idempotency: request.idempotencyClaim, readable: readableBy(request, ctx.resources) });
    return sendWritten(request, reply, resource, result.record!, false);
  };
}
