import { createHash, randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { etagOf, type StoredRecord } from '../core/record.js';
import type { ResourceDefinition } from '../core/resource.js';
import type { AppliedWrite, IdempotencyCompletion } from '../store/idempotency.js';
import type { HttpContext } from './context.js';
import { halRecord, recordPath } from './hal.js';
import { preferencesOf } from './prefer.js';
import { sendProblem } from './problems.js';
import { sendRepresentation, sendWithoutRecord } from './respond.js';
import { StoreFullError } from '../store/errors.js';

/**
 * An in-flight claim is a lease: if its holder dies before its write commits, a retry may take
 * the key over after this long. A holder that is only slow cannot cause a second write: its write
 * must still hold the claim when it commits (see WriteOptions.idempotency), so this only bounds
 * how long retries after a crash get 409.
 */
const IN_FLIGHT_LEASE_MS = 10_000;
/** Response headers that belong to the stored response and are replayed. */
const REPLAYED = ['location', 'etag', 'content-type', 'last-modified', 'link', 'vary', 'accept-patch', 'allow', 'preference-applied'];

declare module 'fastify' {
  interface FastifyRequest {
    /** The Idempotency-Key this request claimed: handlers pass it to the store write that completes it. */
    idempotencyClaim?: IdempotencyCompletion;
  }
}

/** Whether a request may read a record (of `resource`), so a replay may show it; the app passes the access rules in. */
export type MayRead = (request: FastifyRequest, resource: ResourceDefinition, record: StoredRecord | undefined) => boolean;

/** Where a key is valid: the caller (subject, else anonymous), the method and the path. */
export function keyScope(subject: string | undefined, method: string, url: string): string {
  return `${subject ?? 'anonymous'} ${method} ${url.split('?')[0]}`;
}

/**
 * The hash a retry must match: the same method, URL, content type and body, and `Prefer:
 * handling=lenient`, which changes what the body does (a strict request's hash is what it always was).
 */
export function requestFingerprint(method: string, url: string, contentType: string | undefined, body: unknown, lenient = false): string {
  return createHash('sha256').update(`${method}\n${url}\n${contentType ?? ''}\n${JSON.stringify(body ?? null)}${lenient ? '\nhandling=lenient' : ''}`).digest('base64url');
}

/**
 * `Idempotency-Key` (draft-ietf-httpapi-idempotency-key-header) for POST and PATCH. The first
 * request with a key claims it; the write it makes marks the key applied in the same transaction,
 * and its response (status, headers, body) is stored after. Every retry with the same key and the
 * same request gets that response replayed (`Idempotent-Replayed: true`) and changes nothing; if
 * the process died between the commit and storing the response, the retry gets the equivalent
 * response rebuilt from the record the write made. The same key with a different request is 422;
 * a retry while the first is still running is 409. Keys are scoped by `keyScope`. A retry whose
 * caller may not read the record (`mayRead`: its token lost the scope since) gets the answer
 * without it, as a first request of its own would (sendWithoutRecord). A retry is the same request:
 * its `Prefer: return=…` does not reshape the stored answer, which replays with its own
 * Preference-Applied, so the client sees which answer it got.
 */
export function idempotencyHooks(ctx: HttpContext, mayRead: MayRead = () => true) {
  const ttlMs = ctx.config.idempotency.ttlSeconds * 1000;

  const preHandler = async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers['idempotency-key'];
    if (header === undefined) return;
    const key = Array.isArray(header) ? header[0] : header;
    if (!/^[\x21-\x7e][\x20-\x7e]{0,254}$/.test(key) || Array.isArray(header)) {
      return sendProblem(request, reply, 'malformed-body', 'Idempotency-Key must be one printable ASCII value of 1 to 255 characters');
    }
    const scope = keyScope(request.subject, request.method, request.url);
    const fingerprint = requestFingerprint(request.method, request.url, request.headers['content-type'], request.body, preferencesOf(request).handling === 'lenient');
    const id = randomUUID();
    const result = await ctx.store.claimIdempotencyKey({ scope, key, id, fingerprint, expiresAt: new Date(Date.now() + Math.min(ttlMs, IN_FLIGHT_LEASE_MS)).toISOString() });
    if (result.claimed) {
      request.idempotencyClaim = { scope, key, claimId: id, expiresAt: new Date(Date.now() + ttlMs).toISOString() };
      return;
    }
    const { entry } = result;
    if (entry.fingerprint !== fingerprint) {
      return sendProblem(request, reply, 'idempotency-key-reused', `Idempotency-Key "${key}" was first used with a different request; use a new key for a new request`);
    }
    if (entry.response) {
      const { status, headers, body } = entry.response;
      if (entry.applied && status < 300 && !(await readsBack(request, entry.applied))) {
        return sendWithoutRecord(reply.header('idempotent-replayed', 'true'), status === 201, headers.location);
      }
      reply.code(status).headers(headers).header('idempotent-replayed', 'true');
      // A stored answer without a body (Prefer: return=minimal) replays without one, and without a Content-Type.
      return reply.send(body === '' ? undefined : body);
    }
    if (entry.applied) return replayApplied(ctx, request, reply, entry.applied, mayRead);
    reply.header('retry-after', '1');
    return sendProblem(request, reply, 'idempotency-in-flight', `the first request with Idempotency-Key "${key}" is still being processed; retry shortly`);
  };

  /** True when the retry may read the record its key's write made (only asked when the resource's reads are not public). */
  async function readsBack(request: FastifyRequest, applied: AppliedWrite): Promise<boolean> {
    const resource = ctx.resources.get(applied.resource);
    if (!resource || resource.access.read === 'public') return true;
    return mayRead(request, resource, await ctx.store.get(resource, applied.recordId));
  }

  /**
   * Stores the first response once it is final; a 5xx releases the key (unless its write was
   * applied) so the client may retry. Failing to store it is only logged: a write's key was
   * already completed with the write, and a key without one stays claimed until its lease ends.
   */
  const onSend = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const claim = request.idempotencyClaim;
    if (!claim) return payload;
    request.idempotencyClaim = undefined;
    const held = { scope: claim.scope, key: claim.key, id: claim.claimId };
    try {
      if (reply.statusCode >= 500) {
        await ctx.store.completeIdempotencyKey(held, undefined);
        return payload;
      }
      const headers: Record<string, string> = {};
      for (const name of REPLAYED) {
        const v = reply.getHeader(name);
        if (v !== undefined) headers[name] = String(v);
      }
      const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : '';
      await ctx.store.completeIdempotencyKey(held, { status: reply.statusCode, headers, body }, claim.expiresAt);
    } catch (err) {
      // A full disk is logged once by the store's watch, not once per request.
      if (!(err instanceof StoreFullError)) request.log.warn({ err }, 'could not store the response of an Idempotency-Key');
    }
    return payload;
  };

  return { preHandler, onSend };
}

/**
 * The response of a first request whose write committed but whose response was never stored (its
 * process died in between): the same status and Location, the record as it is now. If the record
 * has been deleted since, the status and Location alone.
 */
async function replayApplied(ctx: HttpContext, request: FastifyRequest, reply: FastifyReply, applied: AppliedWrite, mayRead: MayRead) {
  const resource = ctx.resources.get(applied.resource)!;
  const created = applied.outcome === 'created';
  const record = await ctx.store.get(resource, applied.recordId);
  reply.header('idempotent-replayed', 'true');
  const location = created ? recordPath(resource, applied.recordId) : undefined;
  if (!record) return reply.code(created ? 201 : 200).headers(location ? { location } : {}).send();
  if (!mayRead(request, resource, record)) return sendWithoutRecord(reply, created, location);
  return sendRepresentation(request, reply, created ? 201 : 200, halRecord(resource, record), { etag: etagOf(record), location, lastModified: record.updatedAt });
}
