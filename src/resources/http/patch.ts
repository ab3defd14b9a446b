import type { FastifyReply, FastifyRequest } from 'fastify';
import { BadRequestError } from '../../core/errors.js';
import { applyJsonPatch } from '../../core/json-patch.js';
import { applyMergePatch } from '../../core/merge-patch.js';
import { etagOf, toPlain, type StoredRecord } from '../../core/record.js';
import type { ResourceDefinition } from '../../core/resource.js';
import type { HttpContext } from '../../http/context.js';
import { PATCH_TYPES } from '../../http/body-types.js';
import { checkPreconditions } from '../../http/conditional.js';
import { halRecord } from '../../http/hal.js';
import { sendRepresentation } from '../../http/respond.js';
import { notFound, recordId, visible } from './record-request.js';

/**
 * `PATCH /{collection}/{id}`: applies a merge patch (RFC 7396) or a JSON Patch (RFC 6902) to the
 * current representation and validates the result, all inside the write transaction, so the
 * patch is atomic and cannot interleave with another write. A result larger than a record may be is a
 * 413 (record-too-large), a JSON Patch stopped at the operation that would cross the limit.
 */
export function patchRecord(ctx: HttpContext, resource: ResourceDefinition) {
  const validator = ctx.validators.get(resource.name)!;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const id = recordId(request, resource);
    const kind = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (request.body === undefined) throw new BadRequestError('invalid-patch', 'PATCH needs a patch document in the body');
    // A JSON Patch is bounded while it applies (it can double a value per operation); a merge patch's
    // result is at most the record and the body, so the record check in prepare bounds it.
    const apply = kind === PATCH_TYPES[1] ? (doc: unknown, current: StoredRecord) => applyJsonPatch(doc, request.body, validator.patchLimit(current)) : (doc: unknown) => applyMergePatch(doc, request.body);
    const result = await ctx.store.mutate(resource, id, (current) => {
      if (!current || !visible(request, current)) throw notFound(resource, id);
      checkPreconditions(request.headers, current, resource.requireIfMatch);
      return { put: validator.prepare(apply(toPlain(current), current), current, id) };
    }, { idempotency: request.idempotencyClaim });
    const record = result.record!;
    return sendRepresentation(request, reply, 200, halRecord(resource, record), { etag: etagOf(record), lastModified: record.updatedAt });
  };
}
