import type { FastifyReply, FastifyRequest } from 'fastify';
import { bearerChallenge } from '../../auth/http/challenge.js';
import { DomainError, type FieldError } from '../../core/errors.js';
import { BatchItemError } from '../../store/batch.js';
import { isProblemCode, problemBody, PROBLEMS } from '../../http/problems.js';
import { addVary } from '../../http/vary.js';

/** A batch item's own problem: what it would have been answered alone. */
export interface ItemProblem {
  status: number;
  body: Record<string, unknown>;
  /** Headers its answer alone would carry (a Bearer challenge for 401 and 403). */
  headers: Record<string, string>;
}

/**
 * The error a batch (or a bulk create) failed with, as its item's own problem; undefined when it is
 * no item's fault (the database unreachable or full, a bug): the request as a whole then fails as
 * such an error does on its own (503, 507, 500), through the error handler.
 */
export function itemProblem(request: FastifyRequest, err: unknown, instance: string): ItemProblem | undefined {
  if (!(err instanceof DomainError) || !isProblemCode(err.code)) return undefined;
  const body = { ...problemBody(request, err.code, err.message, err.extra), instance };
  const headers: Record<string, string> = {};
  if (err.code === 'unauthorized') headers['www-authenticate'] = bearerChallenge();
  if (err.code === 'forbidden') headers['www-authenticate'] = bearerChallenge({ error: 'insufficient_scope', description: err.message, scope: String(err.extra.scope ?? '').split(' ').filter(Boolean) });
  return { status: PROBLEMS[err.code].status, body, headers };
}

/** The error of a failed Store.batch: the item's own, and its index; anything else is not an item's. */
export function unwrapItem(err: unknown): { index: number; error: unknown } | undefined {
  return err instanceof BatchItemError ? { index: err.index, error: err.error } : undefined;
}

/**
 * The answer to a batch that failed at item `index`: nothing was applied. It has the item's own
 * status and headers, and is a `batch-failed` problem whose `problem` member is the item's own.
 */
export function sendBatchFailed(request: FastifyRequest, reply: FastifyReply, index: number, what: string, problem: ItemProblem): FastifyReply {
  const detail = `item ${index} (${what}) failed with ${problem.status} ${String(problem.body.title)}: ${String(problem.body.detail)}; nothing in the batch was applied`;
  const body = { ...problemBody(request, 'batch-failed', detail, { index, problem: problem.body }), status: problem.status };
  // A 405 lists what the target allows (RFC 9110 §15.5.6): this one is /batch, which takes POST.
  if (problem.status === 405) reply.header('allow', 'POST');
  addVary(reply.code(problem.status).headers(problem.headers), 'Accept');
  return reply.type('application/problem+json').send(body);
}

/** `errors` (FieldError pointers) of an item's error, moved under `/{index}`: where they are in a bulk create's array. */
export function underIndex(err: DomainError, index: number): DomainError {
  const errors = err.extra.errors as FieldError[] | undefined;
  const moved = errors?.map((e) => ({ ...e, pointer: `/${index}${e.pointer}` }));
  const copy = new DomainError(err.code, `item ${index}: ${err.message}`, { ...err.extra, index, ...(moved ? { errors: moved } : {}) });
  return copy;
}
