import type { FastifyReply, FastifyRequest } from 'fastify';
import { BadRequestError, ValidationError } from '../../core/errors.js';
import { etagOf, toPlain, type StoredRecord } from '../../core/record.js';
import { SINGULAR_ID, type ResourceDefinition } from '../../core/resource.js';
import type { HttpContext } from '../../http/context.js';
import { readStatus } from '../../http/conditional.js';
import { sendNotModified, sendWithoutRecord } from '../../http/respond.js';
import { addVary } from '../../http/vary.js';
import { checkWritePreconditions, patchTarget } from '../../resources/http/blind-write.js';
import { mayRead, notFound, readableBy, visible } from '../../resources/http/record-request.js';

/**
 * The object as json-server serves it: its fields, bare, without the id it is stored under (a
 * singular resource has none to the client), plus Restwell's version, createdAt and updatedAt.
 */
export function bareObject(record: StoredRecord): Record<string, unknown> {
  const { id: _id, ...rest } = toPlain(record);
  return rest;
}

/** Members a json-server front-end sends back from what it read: the server sets them, so they are ignored. */
const IGNORED = ['version', 'createdAt', 'updatedAt'];

/** The members of a write body the validator should see: system members read earlier are dropped, anything else stays (so an array is refused there). */
function writeBody(body: unknown): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const input = { ...(body as Record<string, unknown>) };
  for (const key of IGNORED) delete input[key];
  return input;
}

const httpDateOf = (iso: string) => new Date(iso).toUTCString();

function send(reply: FastifyReply, status: number, record: StoredRecord, location?: string): FastifyReply {
  reply.code(status).header('etag', etagOf(record)).header('last-modified', httpDateOf(record.updatedAt));
  if (location) reply.header('location', location).header('access-control-expose-headers', 'Location');
  return reply.type('application/json').send(JSON.stringify(bareObject(record)));
}

/** `GET|HEAD /{name}`: the bare object (404 problem until it is set); its preconditions as for any record. */
export function readSingular(ctx: HttpContext, resource: ResourceDefinition) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const record = visible(request, await ctx.store.get(resource, SINGULAR_ID));
    if (!record) throw notFound(resource, SINGULAR_ID);
    if (readStatus(request, record) === 304) {
      reply.code(304).header('etag', etagOf(record)).header('last-modified', httpDateOf(record.updatedAt));
      return sendNotModified(request, reply);
    }
    return send(reply, 200, record);
  };
}

/**
 * `PUT /{name}` (replaces the object, 200; creates it, 201) and `POST /{name}` (sets it, 201 as
 * json-server answers, Location the object's own URL). The body is the whole object.
 */
export function setSingular(ctx: HttpContext, resource: ResourceDefinition, method: 'PUT' | 'POST') {
  const validator = ctx.validators.get(resource.name)!;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.body === undefined) throw new BadRequestError('malformed-body', `${method} needs a JSON object with the fields of ${resource.name}`);
    const result = await ctx.store.mutate(
      resource,
      SINGULAR_ID,
      (current) => {
        // Another subject's object under an `owner` rule: it is there, but not for this request.
        if (current && !visible(request, current)) throw notFound(resource, SINGULAR_ID);
        const blind = current !== undefined && !mayRead(request, resource, current);
        checkWritePreconditions(request, resource, current, blind);
        return { put: validator.prepare(writeBody(request.body), current, SINGULAR_ID, blind) };
      },
      { owner: request.subject ?? null, readable: readableBy(request, ctx.resources) },
    );
    const created = method === 'POST' || result.outcome === 'created';
    return sendSet(request, reply, resource, result.record!, created);
  };
}

/**
 * `PATCH /{name}` with a JSON object: json-server's shallow merge (Object.assign) of its top-level
 * members into the object; the result is validated like a PUT body. 404 until the object is set.
 */
export function mergeSingular(ctx: HttpContext, resource: ResourceDefinition) {
  const validator = ctx.validators.get(resource.name)!;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const body = writeBody(request.body);
    if (request.body === undefined) throw new BadRequestError('invalid-patch', `PATCH /${resource.name} needs a JSON object whose members replace those of ${resource.name}`);
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      // The same answer as a PUT of it: a body that is no object is no valid object.
      throw new ValidationError([{ pointer: '', detail: `must be a JSON object whose members replace those of ${resource.name} (a shallow merge, as json-server does)` }]);
    }
    const result = await ctx.store.mutate(
      resource,
      SINGULAR_ID,
      (current) => {
        if (!current || !visible(request, current)) throw notFound(resource, SINGULAR_ID);
        const blind = !mayRead(request, resource, current);
        checkWritePreconditions(request, resource, current, blind);
        return { put: validator.prepare({ ...patchTarget(current, blind), ...body }, current, SINGULAR_ID, blind) };
      },
      { idempotency: request.idempotencyClaim, readable: readableBy(request, ctx.resources) },
    );
    return sendSet(request, reply, resource, result.record!, false);
  };
}

/** The written object, or, for a writer that may not read it, none (write access must not leak read access). */
function sendSet(request: FastifyRequest, reply: FastifyReply, resource: ResourceDefinition, record: StoredRecord, created: boolean): FastifyReply {
  const location = created ? `/${resource.name}` : undefined;
  if (resource.access.read !== 'public') addVary(reply, 'Authorization');
  if (!mayRead(request, resource, record)) return sendWithoutRecord(reply, created, location);
  return send(reply, created ? 201 : 200, record, location);
}
