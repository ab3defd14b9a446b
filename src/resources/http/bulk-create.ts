import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, ValidationError, type FieldError } from '../../core/errors.js';
import type { StoredRecord } from '../../core/record.js';
import type { ResourceDefinition } from '../../core/resource.js';
import type { HttpContext } from '../../http/context.js';
import { halRecord, recordPath } from '../../http/hal.js';
import { mediaType, negotiate } from '../../http/negotiate.js';
import { sendRepresentation } from '../../http/respond.js';
import { addVary } from '../../http/vary.js';
import type { BatchOp, BatchStep } from '../../store/store.js';
import type { Mutation } from '../../store/store.js';
import { underIndex, unwrapItem } from './batch-failure.js';
import { mayRead } from './record-request.js';
import { createWrite, requestCall, type WriteCall } from './record-writes.js';
import { lenientHandling } from './write-response.js';

/**
 * `POST /{collection}` with a JSON array: creates one record per item, in one transaction (all of
 * them or none), each validated, owned and evented as a POST of its own would be; at most
 * `server.batch.maxRequests` items. Every item is validated before anything is written, and all
 * their validation errors come back in one 422, each pointer under its item (`/3/name`); a write
 * refused for one item (a unique value taken) is its own problem, with `index` and pointers under it.
 * The answer is 200, not 201: RFC 9110 has a 201 identify the one resource it created by its
 * Location (or else the target, the collection, which was not created); several records are
 * identified each by the self link of its entry in `_embedded`, in the order sent.
 */
export function createMany(ctx: HttpContext, resource: ResourceDefinition) {
  const max = ctx.config.server.batch.maxRequests;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const items = request.body as unknown[];
    if (items.length === 0) throw new ValidationError([{ pointer: '', detail: `an empty array creates nothing: send an object with the fields of ${resource.name}, or an array of them` }]);
    if (items.length > max) throw new DomainError('batch-too-large', `${items.length} records in one request; at most ${max} are created in one transaction (server.batch.maxRequests): send them in several requests`);
    const lenient = lenientHandling(request, reply);
    const ops: BatchOp[] = [];
    const invalid: FieldError[] = [];
    items.forEach((item, i) => {
      const call: WriteCall = { ...requestCall(request, lenient), body: item };
      try {
        ops.push(createWrite(ctx, resource, call));
      } catch (err) {
        if (!(err instanceof ValidationError) || err.code !== 'validation-failed') throw err instanceof DomainError ? underIndex(err, i) : err;
        invalid.push(...err.errors.map((e) => ({ ...e, pointer: `/${i}${e.pointer}` })));
      }
    });
    if (invalid.length) throw new ValidationError(invalid);
    const steps: BatchStep[] = ops.map((op) => () => op);
    const rep = negotiate(request);
    let body: Record<string, unknown> | undefined;
    const answer = (results: readonly Mutation[]) => (body = listBody(request, resource, results.map((r) => r.record!)));
    const claim = request.idempotencyClaim;
    let results: Mutation[];
    try {
      results = await ctx.store.batch(steps, {
        // The answer is stored with the records (the key never applies them twice); an HTML page is stored as its JSON.
        idempotency: claim && { completion: claim, response: (r) => ({ status: 200, headers: { 'content-type': mediaType(rep === 'html' ? 'json' : rep) }, body: JSON.stringify(answer(r)) }) },
      });
    } catch (err) {
      const failed = unwrapItem(err);
      if (!failed) throw err;
      throw failed.error instanceof DomainError ? underIndex(failed.error, failed.index) : failed.error;
    }
    if (resource.access.read !== 'public') addVary(reply, 'Authorization');
    return sendRepresentation(request, reply, 200, body ?? answer(results));
  };
}

/** The created records, in the order sent: each one the caller may read in full, the others as their self link alone. */
function listBody(request: FastifyRequest, resource: ResourceDefinition, records: StoredRecord[]): Record<string, unknown> {
  const embedded = records.map((r) => (mayRead(request, resource, r) ? halRecord(resource, r) : { _links: { self: { href: recordPath(resource, r.id) } } }));
  return { _links: { self: { href: `/${resource.name}` } }, count: records.length, _embedded: { [resource.name]: embedded } };
}
