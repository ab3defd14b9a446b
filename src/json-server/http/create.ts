import type { FastifyReply, FastifyRequest } from 'fastify';
import { BadRequestError, ConflictError } from '../../core/errors.js';
import { idShape, parseId } from '../../core/ids.js';
import type { ResourceDefinition } from '../../core/resource.js';
import { recordPath } from '../../http/hal.js';
import type { HttpContext } from '../../http/context.js';
import { createRecord } from '../../resources/http/create.js';
import { readableBy } from '../../resources/http/record-request.js';
import { sendWritten } from '../../resources/http/write-response.js';
import { JSON_SERVER_SHAPE } from './plain-shape.js';

/**
 * `POST /{collection}` as json-server answers it: 201 with the bare record. A body may name the new
 * record's `id`, as json-server lets front-ends that draw their own ids do: it is created there, and
 * a taken id is a 409 (json-server fails with a 500). Without one the server draws it, as always.
 */
export function createJsonServer(ctx: HttpContext, resource: ResourceDefinition) {
  const drawn = createRecord(ctx, resource, JSON_SERVER_SHAPE);
  const validator = ctx.validators.get(resource.name)!;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const body = request.body;
    if (body === null || typeof body !== 'object' || Array.isArray(body) || !('id' in body) || body.id === null || body.id === undefined) return drawn(request, reply);
    const { id: given, ...fields } = body as Record<string, unknown>;
    const id = typeof given === 'string' || typeof given === 'number' ? parseId(resource, String(given)) : undefined;
    if (id === undefined) throw new BadRequestError('invalid-id', `${JSON.stringify(given).slice(0, 40)} cannot be an id of ${resource.name}: ids are ${idShape(resource)}`);
    const result = await ctx.store.mutate(
      resource,
      id,
      (current) => {
        if (current) throw new ConflictError('id-taken', `${recordPath(resource, id)} already exists; PUT to it to replace it, or POST without an id to get a new one`);
        return { put: validator.prepare(JSON_SERVER_SHAPE.input(fields)) };
      },
      { owner: request.subject ?? null, idempotency: request.idempotencyClaim, readable: readableBy(request, ctx.resources) },
    );
    return sendWritten(request, reply, resource, result.record!, true, recordPath(resource, id), JSON_SERVER_SHAPE);
  };
}
