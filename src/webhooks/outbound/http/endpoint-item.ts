import type { FastifyReply, FastifyRequest } from 'fastify';
import { BadRequestError } from '../../../core/errors.js';
import { applyJsonPatch } from '../../../core/json-patch.js';
import { applyMergePatch } from '../../../core/merge-patch.js';
import { etagOf } from '../../../core/record.js';
import { PATCH_TYPES } from '../../../http/body-types.js';
import { checkPreconditions, readStatus } from '../../../http/conditional.js';
import { parseMediaType } from '../../../http/media-type.js';
import { sendRepresentation } from '../../../http/respond.js';
import type { WebhookEndpoint } from '../../../store/outbox.js';
import { parseEndpointInput, sealedHeaders, type InputRules } from './endpoint-input.js';
import { asRecord, endpointNotFound, endpointOf, halEndpoint } from './endpoint-view.js';
import { inputRules } from './input-rules.js';
import type { OutboundContext } from './outbound-context.js';
import { ownerAccessFor, reaches } from './endpoint-ownership.js';

const idOf = (request: FastifyRequest) => (request.params as { id: string }).id;

function sendEndpoint(ctx: OutboundContext, request: FastifyRequest, reply: FastifyReply, ep: WebhookEndpoint, status: number) {
  return sendRepresentation(request, reply, status, halEndpoint(ep, ctx.outbound.secrets), { etag: etagOf(asRecord(ep)), lastModified: ep.updatedAt });
}

/** `GET|HEAD /webhook-endpoints/{id}`: 200 with ETag (304 / 412 as its preconditions say); the secrets only as hints. */
export function readEndpoint(ctx: OutboundContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const ep = await endpointOf(ctx, request);
    return sendEndpoint(ctx, request, reply, ep, readStatus(request, asRecord(ep)));
  };
}

/**
 * Changes an endpoint inside the store's transaction: 404 when there is none (endpoints are made
 * by POST), 412 when If-Match (or If-Unmodified-Since) does not hold, then the new fields as
 * `next` computes them from the current endpoint. The secrets are kept as they are, and so are
 * sealed header values sent back as `[redacted]`.
 */
async function update(ctx: OutboundContext, rules: InputRules, request: FastifyRequest, next: (current: WebhookEndpoint) => unknown): Promise<WebhookEndpoint> {
  const id = idOf(request);
  const result = await ctx.store.outbox.updateEndpoint(id, (current) => {
    if (!current || !reaches(request, current)) throw endpointNotFound(id);
    checkPreconditions(request.headers, asRecord(current));
    const { fields } = parseEndpointInput(next(current), rules, 'replace', id);
    return { put: { ...fields, headers: sealedHeaders(ctx.outbound.secrets, fields.headers, current.headers), sealedSecrets: current.sealedSecrets, ...ownerAccessFor(request) } };
  });
  if (!result.endpoint) throw endpointNotFound(id);
  return result.endpoint;
}

/** `PUT /webhook-endpoints/{id}`: replaces what a user sets (a GET body may be PUT back as it is); If-Match → 412. */
export function replaceEndpoint(ctx: OutboundContext) {
  const rules = inputRules(ctx);
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.body === undefined) throw new BadRequestError('malformed-body', 'PUT needs the whole endpoint as JSON, e.g. the body GET returns with your changes');
    const ep = await update(ctx, rules, request, () => request.body);
    return sendEndpoint(ctx, request, reply, ep, 200);
  };
}

/**
 * `PATCH /webhook-endpoints/{id}`: a merge patch (RFC 7396) or a JSON Patch (RFC 6902) applied to
 * the endpoint as GET shows it, the result checked like a PUT body, all in one transaction.
 * `{"enabled": true}` re-enables an endpoint the dispatcher disabled.
 */
export function patchEndpoint(ctx: OutboundContext) {
  const rules = inputRules(ctx);
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.body === undefined) throw new BadRequestError('invalid-patch', 'PATCH needs a patch document in the body, e.g. {"enabled": true}');
    // An endpoint is small, but a JSON Patch could double a value per operation: bounded like a record's.
    const limit = ctx.config.server.recordLimit;
    const apply = parseMediaType(request.headers['content-type']).type === PATCH_TYPES[1] ? (doc: unknown, body: unknown) => applyJsonPatch(doc, body, limit) : applyMergePatch;
    const ep = await update(ctx, rules, request, (current) => {
      const { _links: _, ...view } = halEndpoint(current, ctx.outbound.secrets);
      return apply(view, request.body);
    });
    return sendEndpoint(ctx, request, reply, ep, 200);
  };
}

/** `DELETE /webhook-endpoints/{id}`: 204, its deliveries and their attempts go with it; If-Match honoured. */
export function deleteEndpoint(ctx: OutboundContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const id = idOf(request);
    await ctx.store.outbox.updateEndpoint(id, (current) => {
      if (!current || !reaches(request, current)) throw endpointNotFound(id);
      checkPreconditions(request.headers, asRecord(current));
      return { delete: true };
    });
    return reply.code(204).send();
  };
}
