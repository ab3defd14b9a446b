import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyRequest } from 'fastify';
import type { Principal } from '../../auth/principal.js';
import { BadRequestError, RecordTooLargeError } from '../../core/errors.js';
import { applyJsonPatch } from '../../core/json-patch.js';
import { applyMergePatch } from '../../core/merge-patch.js';
import type { RecordId, StoredRecord } from '../../core/record.js';
import type { ResourceDefinition } from '../../core/resource.js';
import { blindRecordTooLarge, type RecordValidator } from '../../core/validate.js';
import type { HttpContext } from '../../http/context.js';
import { PATCH_TYPES } from '../../http/body-types.js';
import type { BatchOp } from '../../store/store.js';
import type { Dependents } from '../../store/store.js';
import { checkWritePreconditions, patchTarget, refuseStoredReads } from './blind-write.js';
import { mayRead, notFound, readableBy, visible } from './record-request.js';
import { HAL_SHAPE, type RecordShape } from './record-shape.js';

/**
 * What a write needs of the request that asks for it: its headers (Content-Type, preconditions),
 * its body, and who sends it as the route's guard decided (principal, subject, and the owner whose
 * records alone exist for it under an `owner` rule). A FastifyRequest is one; so is each item of a
 * batch, which gets the batch request's principal and its own access decision.
 */
export interface WriteCall {
  headers: IncomingHttpHeaders;
  body: unknown;
  principal?: Principal;
  subject?: string;
  visibleOwner?: string;
  /** Validate the body without its unknown members (`Prefer: handling=lenient`); a JSON Patch stays strict. */
  lenient?: boolean;
}

/** A request of its own as a WriteCall, lenient or not as its Prefer header asked (lenientHandling). */
export function requestCall(request: FastifyRequest, lenient: boolean): WriteCall {
  return { headers: request.headers, body: request.body, principal: request.principal, subject: request.subject, visibleOwner: request.visibleOwner, lenient };
}

/** True when a PATCH's Content-Type says JSON Patch (RFC 6902), whose operations are instructions and never lenient. */
export function isJsonPatch(headers: IncomingHttpHeaders): boolean {
  return String(headers['content-type'] ?? '').split(';')[0].trim().toLowerCase() === PATCH_TYPES[1];
}

/** The body a write validates: as sent, or without its unknown members when the call is lenient. */
function handled(validator: RecordValidator, call: WriteCall, body: unknown): unknown {
  return call.lenient ? validator.withoutUnknownMembers(body) : body;
}

/*
 * Each record write prepared once, for a request of its own and for an item of a batch alike: the
 * same checks (visibility, blind writes, preconditions), validator and decide function; the caller
 * runs the op (Store.insert or Store.mutate, or one step of Store.batch) and answers.
 */

/** A POST's insert: the body validated as a new record of `resource`, owned by the caller. */
export function createWrite(ctx: HttpContext, resource: ResourceDefinition, call: WriteCall, shape: RecordShape = HAL_SHAPE): BatchOp {
  if (call.body === undefined) throw new BadRequestError('malformed-body', `POST needs a JSON body with the fields of ${resource.name}`);
  const validator = ctx.validators.get(resource.name)!;
  const data = validator.prepare(handled(validator, call, shape.input(call.body)));
  return { kind: 'insert', resource, data, options: { owner: call.subject ?? null, readable: readableBy(call, ctx.resources) } };
}

/** A PUT's mutate: replaces the record at `id`, or creates it there; If-Match / If-None-Match checked on the record locked. */
export function replaceWrite(ctx: HttpContext, resource: ResourceDefinition, id: RecordId, call: WriteCall, shape: RecordShape = HAL_SHAPE): BatchOp {
  if (call.body === undefined) throw new BadRequestError('malformed-body', `PUT needs the full JSON representation of the ${resource.name} record`);
  const validator = ctx.validators.get(resource.name)!;
  const decide = (current: StoredRecord | undefined) => {
    // Another subject's record under an `owner` rule: the id is taken, but not visible.
    if (current && !visible(call, current)) throw notFound(resource, id);
    const blind = current !== undefined && !mayRead(call, resource, current);
    checkWritePreconditions(call, resource, current, blind);
    return { put: validator.prepare(handled(validator, call, shape.input(call.body)), current, id, blind) };
  };
  return { kind: 'mutate', resource, id, decide, options: { owner: call.subject ?? null, readable: readableBy(call, ctx.resources) } };
}

/**
 * A PATCH's mutate: a JSON Patch (RFC 6902) when Content-Type says so, a merge patch (RFC 7396)
 * otherwise, or the shape's own plain patch for a plain JSON body, applied to the record locked.
 */
export function patchWrite(ctx: HttpContext, resource: ResourceDefinition, id: RecordId, call: WriteCall, shape: RecordShape = HAL_SHAPE): BatchOp {
  const validator = ctx.validators.get(resource.name)!;
  const kind = String(call.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (call.body === undefined) throw new BadRequestError('invalid-patch', 'PATCH needs a patch document in the body');
  const jsonPatch = isJsonPatch(call.headers);
  const body = jsonPatch ? call.body : handled(validator, call, call.body);
  const plain = shape.plainPatch && !(PATCH_TYPES as readonly string[]).includes(kind) ? shape.plainPatch : undefined;
  // A JSON Patch is bounded while it applies (it can double a value per operation); a merge patch's
  // result is at most the record and the body, so the record check in prepare bounds it.
  const apply = (doc: unknown, current: StoredRecord, blind: boolean) => {
    if (plain) return plain(doc as Record<string, unknown>, shape.input(body));
    if (!jsonPatch) return applyMergePatch(doc, body);
    try {
      return applyJsonPatch(doc, call.body, validator.patchLimit(current));
    } catch (err) {
      // The budget's detail gives the record's size; a blind writer is told only that it was crossed.
      if (blind && err instanceof RecordTooLargeError) throw blindRecordTooLarge(resource.name, validator.recordLimit, err.errors[0]?.pointer);
      throw err;
    }
  };
  const decide = (current: StoredRecord | undefined) => {
    if (!current || !visible(call, current)) throw notFound(resource, id);
    const blind = !mayRead(call, resource, current);
    checkWritePreconditions(call, resource, current, blind);
    if (blind && jsonPatch) refuseStoredReads(resource, call.body);
    return { put: validator.prepare(apply(patchTarget(current, blind), current, blind), current, id, blind) };
  };
  return { kind: 'mutate', resource, id, decide, options: { readable: readableBy(call, ctx.resources) } };
}

/** A DELETE's mutate, honouring If-Match; `cascade` deletes dependents too (see WriteOptions.cascade). */
export function deleteWrite(resource: ResourceDefinition, id: RecordId, call: WriteCall, cascade?: Dependents): BatchOp {
  const decide = (current: StoredRecord | undefined) => {
    if (!current || !visible(call, current)) throw notFound(resource, id);
    checkWritePreconditions(call, resource, current, !mayRead(call, resource, current));
    return { delete: true as const };
  };
  return { kind: 'mutate', resource, id, decide, options: { cascade } };
}
