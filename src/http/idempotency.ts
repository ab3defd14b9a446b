import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from './context.js';
import { sendProblem } from './problems.js';

/** An in-flight claim is a lease: if its holder dies, a retry may take the key over after this long. */
const IN_FLIGHT_LEASE_MS = 60_000;
/** Response headers that belong to the stored response and are replayed. */
const REPLAYED = ['location', 'etag', 'content-type', 'last-modified', 'link', 'vary', 'accept-patch', 'allow'];

interface Claimed {
  scope: string;
  key: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyClaim?: Claimed;
  }
}

/**
 * `Idempotency-Key` (draft-ietf-httpapi-idempotency-key-header) for POST and PATCH. The first
 * request with a key claims it; its response (status, headers, body) is stored and every retry
 * with the same key and the same request gets that response replayed (`Idempotent-Replayed: true`)
 * and changes nothing. The same key with a different request is 422; a retry while the first is
 * still running is 409. Keys are scoped to the caller (subject, else anonymous) and the URL.
 */
export function idempotencyHooks(ctx: AppContext) {
  const ttlMs = ctx.config.idempotency.ttlSeconds * 1000;

  const preHandler = async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers['idempotency-key'];
    if (header === undefined) return;
    const key = Array.isArray(header) ? header[0] : header;
    if (!/^[\x21-\x7e][\x20-\x7e]{0,254}$/.test(key) || Array.isArray(header)) {
      return sendProblem(request, reply, 'malformed-body', 'Idempotency-Key must be one printable ASCII value of 1 to 255 characters');
    }
    const scope = `${request.subject ?? 'anonymous'} ${request.method} ${request.url.split('?')[0]}`;
    const fingerprint = createHash('sha256')
      .update(`${request.method}\n${request.url}\n${request.headers['content-type'] ?? ''}\n${JSON.stringify(request.body ?? null)}`)
      .digest('base64url');
    const result = await ctx.store.claimIdempotencyKey({ scope, key, fingerprint, expiresAt: new Date(Date.now() + Math.min(ttlMs, IN_FLIGHT_LEASE_MS)).toISOString() });
    if (result.claimed) {
      request.idempotencyClaim = { scope, key };
      return;
    }
    const { entry } = result;
    if (entry.fingerprint !== fingerprint) {
      return sendProblem(request, reply, 'idempotency-key-reused', `Idempotency-Key "${key}" was first used with a different request; use a new key for a new request`);
    }
    if (entry.state === 'in-flight' || !entry.response) {
      reply.header('retry-after', '1');
      return sendProblem(request, reply, 'idempotency-in-flight', `the first request with Idempotency-Key "${key}" is still being processed; retry shortly`);
    }
    reply.code(entry.response.status).headers(entry.response.headers).header('idempotent-replayed', 'true');
    return reply.send(entry.response.body);
  };

  /** Stores the first response once it is final; a 5xx releases the key so the client may retry. */
  const onSend = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const claim = request.idempotencyClaim;
    if (!claim) return payload;
    request.idempotencyClaim = undefined;
    if (reply.statusCode >= 500) {
      await ctx.store.completeIdempotencyKey(claim.scope, claim.key, undefined);
      return payload;
    }
    const headers: Record<string, string> = {};
    for (const name of REPLAYED) {
      const v = reply.getHeader(name);
      if (v !== undefined) headers[name] = String(v);
    }
    const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : '';
    await ctx.store.completeIdempotencyKey(claim.scope, claim.key, { status: reply.statusCode, headers, body }, new Date(Date.now() + ttlMs).toISOString());
    return payload;
  };

  return { preHandler, onSend };
}
