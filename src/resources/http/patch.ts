import type { FastifyReply, FastifyRequest } from 'fastify';
import { BadRequestError, RecordTooLargeError } from '../../core/errors.js';
import { applyJsonPatch } from '../../core/json-patch.js';
import { applyMergePatch } from '../../core/merge-patch.js';
import type { StoredRecord } from '../../core/record.js';
import { blindRecordTooLarge } from '../../core/validate.js';
import type { ResourceDefinition } from '../../core/resource.js';
import type { HttpContext } from '../../http/context.js';
import { PATCH_TYPES } from '../../http/body-types.js';
import { checkWritePreconditions, patchTarget, refuseStoredReads } from './blind-write.js';
import { mayRead, notFound, readableBy, recordId, visible } from './record-request.js';
import { HAL_SHAPE, type RecordShape } from './record-shape.js';
import { handledBody, sendWritten } from './write-response.js';

/**
 * `PATCH /{collection}/{id}`: applies a merge patch (RFC 7396) or a JSON Patch (RFC 6902) to the
 * current representation and validates the result, all inside the write transaction, so the
 * patch is atomic and cannot interleave with another write. A writer that may not read the record
 * gets 204, and may not send what would read it (blind-write.ts). A result larger than a record may
 * be is a 413 (record-too-large), a JSON Patch stopped at the operation that would cross the limit.
 */
export function patchRecord(ctx: HttpContext, resource: ResourceDefinition, shape: RecordShape = HAL_SHAPE) {
  const validator = ctx.validators.get(resource.name)!;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const id = recordId(request, resource);
    const kind = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (request.body === undefined) throw new BadRequestError('invalid-patch', 'PATCH needs a patch document in the body');
    const jsonPatch = kind === PATCH_TYPES[1];
    const plain = shape.plainPatch && !(PATCH_TYPES as readonly string[]).includes(kind) ? shape.plainPatch : undefined;
    // A JSON Patch's operations are instructions, not members: `handling` applies to merge patches only.
    const body = jsonPatch ? request.body : handledBody(request, reply, validator, request.body, shape);
    // A JSON Patch is bounded while it applies (it can double a value per operation); a merge patch's
    // result is at most the record and the body, so the record check in prepare bounds it.
    const apply = (doc: unknown, current: StoredRecord, blind: boolean) => {
      if (plain) return plain(doc as Record<string, unknown>, shape.input(body));
      if (!jsonPatch) return applyMergePatch(doc, body);
      try {
        return applyJsonPatch(doc, request.body, validator.patchLimit(current));
      } catch (err) {
        // The budget's detail gives the record's size; a blind writer is told only that it was crossed.
        if (blind && err instanceof RecordTooLargeError) throw blindRecordTooLarge(resource.name, validator.recordLimit, err.errors[0]?.pointer);
        throw err;
      }
    };
    const result = await ctx.store.mutate(resource, id, (current) => {
      if (!current || !visible(request, current)) throw notFound(resource, id);
      const blind = !mayRead(request, resource, current);
      checkWritePreconditions(request, resource, current, blind);
      if (blind && jsonPatch) refuseStoredReads(resource, request.body);
      return { put: validator.prepare(apply(patchTarget(current, blind), current, blind), current, id, blind) };
    }, { idempotency: request.idempotencyClaim, readable: readableBy(request, ctx.resources) });
    return sendWritten(request, reply, resource, result.record!, false, undefined, shape);
  };
}
