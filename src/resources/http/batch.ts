import type { FastifyReply, FastifyRequest } from 'fastify';
import { BadRequestError, DomainError } from '../../core/errors.js';
import { etagOf } from '../../core/record.js';
import type { HttpContext } from '../../http/context.js';
import { halRecord, recordPath } from '../../http/hal.js';
import { httpDateOf } from '../../http/respond.js';
import { addVary } from '../../http/vary.js';
import type { BatchStep, StoredResponse } from '../../store/store.js';
import type { Mutation } from '../../store/store.js';
import { itemProblem, sendBatchFailed, unwrapItem } from './batch-failure.js';
import { itemWrite, type MatchedItem } from './batch-items.js';
import { parsePrefer } from '../../http/prefer.js';
import { mayRead } from './record-request.js';
import { isJsonPatch } from './record-writes.js';

/** One sub-request's answer inside a batch's: what it would have been answered alone. */
interface ItemResponse {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown> | null;
}

/**
 * `POST /batch`: `{ "requests": [ { method, url, headers?, body? } ] }`, run in order in one
 * transaction: all of them are applied, with their events, or none. 200 `{ "responses": [ … ] }`
 * gives each sub-request's own status, headers (Location, ETag, Last-Modified) and body. When one
 * fails, the answer has its status and is a `batch-failed` problem with its `index` and its own
 * `problem`. Bounded by `server.batch` (count and bytes); `Idempotency-Key` covers the whole batch,
 * completed in its transaction. References between items: see batch-references.ts.
 */
export function runBatchRequest(ctx: HttpContext) {
  const { maxRequests, maxBytes } = ctx.config.server.batch;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const length = Number(request.headers['content-length'] ?? Buffer.byteLength(JSON.stringify(request.body ?? null)));
    if (length > maxBytes) throw new DomainError('batch-too-large', `the batch body has ${length} bytes; at most ${maxBytes} are taken (server.batch.maxBytes)`);
    const requests = (request.body as { requests?: unknown } | undefined)?.requests;
    if (request.body === null || typeof request.body !== 'object' || Array.isArray(request.body) || !Array.isArray(requests)) {
      throw new BadRequestError('malformed-body', 'POST /batch takes { "requests": [ { "method", "url", "headers"?, "body"? } ] }');
    }
    if (requests.length === 0) throw new BadRequestError('malformed-body', 'the batch has no requests; send at least one');
    if (requests.length > maxRequests) throw new DomainError('batch-too-large', `${requests.length} sub-requests in one batch; at most ${maxRequests} run in one transaction (server.batch.maxRequests): send several batches`);

    const principal = request.principal;
    const items: MatchedItem[] = [];
    const steps: BatchStep[] = requests.map((entry, index) => (earlier) => {
      const { item, op } = itemWrite(ctx, entry, index, principal, earlier, items);
      items[index] = item;
      return op;
    });
    let answer: Record<string, unknown> | undefined;
    const build = (results: readonly Mutation[]) => (answer = { responses: results.map((m, i) => itemResponse(request, items[i], m)) });
    const claim = request.idempotencyClaim;
    let results: Mutation[];
    try {
      results = await ctx.store.batch(steps, {
        idempotency: claim && { completion: claim, response: (r): StoredResponse => ({ status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(build(r)) }) },
      });
    } catch (err) {
      const failed = unwrapItem(err);
      if (!failed) throw err;
      const entry = requests[failed.index] as { method?: unknown; url?: unknown } | null;
      const what = typeof entry?.method === 'string' && typeof entry.url === 'string' ? `${entry.method.toUpperCase()} ${entry.url}` : 'a malformed entry';
      const problem = itemProblem(request, failed.error, typeof entry?.url === 'string' ? entry.url : request.url);
      if (!problem) throw failed.error;
      return sendBatchFailed(request, reply, failed.index, what, problem);
    }
    // Whether each record comes back depends on who asks.
    addVary(reply, 'Authorization');
    return reply.code(200).type('application/json; charset=utf-8').send(JSON.stringify(answer ?? build(results)));
  };
}

/**
 * A sub-request's own answer, as its route alone would give it (sendWritten, and DELETE's 204),
 * its own Prefer header included: `return=minimal` leaves the record out, and Preference-Applied
 * names what was applied.
 */
function itemResponse(request: FastifyRequest, item: MatchedItem, m: Mutation): ItemResponse {
  const { resource } = item;
  if (item.kind === 'delete') return { status: 204, headers: {}, body: null };
  const record = m.record!;
  const created = m.outcome === 'created';
  const prefs = parsePrefer(item.headers.prefer);
  const readable = mayRead(request, resource, record);
  const applied = [
    prefs.return && (prefs.return === 'minimal' || readable) ? `return=${prefs.return}` : undefined,
    prefs.handling && !(item.kind === 'patch' && isJsonPatch(item.headers)) ? `handling=${prefs.handling}` : undefined,
  ].filter(Boolean);
  const headers: Record<string, string> = { ...(created ? { location: recordPath(resource, record.id) } : {}), ...(applied.length ? { 'preference-applied': applied.join(', ') } : {}) };
  // Write access must not leak read access: only the Location of a record the caller may not read.
  if (!readable) return { status: created ? 201 : 204, headers, body: null };
  Object.assign(headers, { etag: etagOf(record), 'last-modified': httpDateOf(record.updatedAt) });
  if (prefs.return === 'minimal') return { status: created ? 201 : 204, headers, body: null };
  return { status: created ? 201 : 200, headers, body: halRecord(resource, record) };
}
