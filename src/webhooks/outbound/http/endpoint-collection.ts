import type { FastifyReply, FastifyRequest } from 'fastify';
import { etagOf } from '../../../core/record.js';
import { parseKeysetPage, sendKeysetPage } from '../../../http/log-page.js';
import { sendRepresentation } from '../../../http/respond.js';
import { sealedHeaders } from './endpoint-input.js';
import { generateEndpointSecret } from '../secrets.js';
import { asRecord, ENDPOINTS, endpointPath, halEndpoint } from './endpoint-view.js';
import { parseEndpointInput } from './endpoint-input.js';
import { inputRules } from './input-rules.js';
import type { OutboundContext } from './outbound-context.js';
import { ownedScope, ownerAccessFor } from './endpoint-ownership.js';

/** Endpoint cursors name the last endpoint id seen (ids are time-ordered, so they are the listing order). */
const ENDPOINT_CURSOR = { prefix: 'ep:', parse: (t: string) => (/^ep_[0-9a-f]{32}$/.test(t) ? t : undefined) };

/** `GET /webhook-endpoints`: every endpoint (a subscriber's own only, under `webhooks:own`), oldest first, a keyset page at a time (one row past the page tells `next` is due); never a secret. */
export function listEndpoints(ctx: OutboundContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const page = parseKeysetPage(request.query as Record<string, unknown>, [], ENDPOINT_CURSOR);
    const rows = await ctx.store.outbox.listEndpoints({ after: page.after, limit: page.limit + 1, owner: ownedScope(request) });
    return sendKeysetPage(request, reply, { path: ENDPOINTS, prefix: ENDPOINT_CURSOR.prefix, rel: 'webhook-endpoints', request: page, rows, position: (ep) => ep.id, embed: (ep) => halEndpoint(ep, ctx.outbound.secrets) });
  };
}

/**
 * `POST /webhook-endpoints`: 201 with the endpoint, its ETag and Location. The body carries the
 * signing secret (the one given, or a new one): the only time it is ever shown, so it is never
 * cached, and the route keeps it out of Idempotency-Key storage. It receives events committed from now on.
 */
export function createEndpoint(ctx: OutboundContext) {
  const rules = inputRules(ctx);
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const { fields, secret: given } = parseEndpointInput(request.body, rules, 'create');
    const secret = given ?? generateEndpointSecret();
    const sealedSecrets = ctx.outbound.secrets.seal([{ secret, createdAt: new Date().toISOString() }]);
    const headers = sealedHeaders(ctx.outbound.secrets, fields.headers);
    const ep = await ctx.store.outbox.createEndpoint({ ...fields, headers, sealedSecrets, ...ownerAccessFor(request) }, request.subject ?? null);
    reply.header('cache-control', 'no-store');
    return sendRepresentation(request, reply, 201, { ...halEndpoint(ep, ctx.outbound.secrets), secret }, {
      etag: etagOf(asRecord(ep)),
      location: endpointPath(ep.id),
      lastModified: ep.updatedAt,
    });
  };
}
