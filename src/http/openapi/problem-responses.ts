import { PROBLEMS, type ProblemCode } from '../problems.js';
import type { Json } from './components.js';
import { header } from './headers.js';
import type { SchemaContext } from './schemas.js';

/** The RFC 9457 problem details object every error response carries. */
export function problemSchema(ctx: SchemaContext): { $ref: string } {
  return ctx.components.schema('problem', 'Problem', () => ({
    type: 'object',
    description: 'An RFC 9457 problem: `type` is a page on this server that documents the problem (see GET /problems/{code}).',
    required: ['type', 'title', 'status'],
    properties: {
      type: { type: 'string', format: 'uri', description: 'Identifies the problem type; ends with /problems/{code}' },
      title: { type: 'string', description: 'Short, stable summary of the problem type' },
      status: { type: 'integer', minimum: 400, maximum: 599 },
      detail: { type: 'string', description: 'What went wrong with this request, and how to fix it' },
      instance: { type: 'string', description: 'The request target, as received' },
    },
  }));
}

/** A problem with per-field `errors`, as sent for 422 validation failures. */
export function validationProblemSchema(ctx: SchemaContext): { $ref: string } {
  return ctx.components.schema('validation-problem', 'ValidationProblem', () => ({
    description: 'A validation-failed problem: `errors` names each field at fault.',
    allOf: [
      problemSchema(ctx),
      {
        type: 'object',
        properties: {
          errors: {
            type: 'array',
            items: {
              type: 'object',
              required: ['pointer', 'detail'],
              properties: {
                pointer: { type: 'string', description: 'JSON Pointer (RFC 6901) to the field in the request body, e.g. /name' },
                detail: { type: 'string', description: 'What is wrong with it' },
              },
            },
          },
        },
      },
    ],
  }));
}

/** Headers every problem of a status carries, whatever the operation. */
function statusHeaders(status: number, list: readonly ProblemCode[], ctx: SchemaContext): Record<string, unknown> {
  if (status === 503 || status === 507) return { 'Retry-After': header(ctx, 'retry-after') };
  if (status === 429) return { 'Retry-After': header(ctx, 'retry-after'), RateLimit: header(ctx, 'ratelimit'), 'RateLimit-Policy': header(ctx, 'ratelimit-policy') };
  if (list.includes('idempotency-in-flight')) return { 'Retry-After': header(ctx, 'retry-after', list.length === 1) };
  return {};
}

/**
 * One problem response per status that `codes` can produce; the description names each catalog
 * code with its title, so a client knows exactly which errors an operation has. `extraHeaders`
 * adds the headers an operation sends with some statuses (Accept-Patch on 415, a challenge on 401).
 */
export function problemResponses(codes: readonly ProblemCode[], ctx: SchemaContext, extraHeaders: Partial<Record<number, Record<string, unknown>>> = {}): Record<string, Json> {
  const byStatus = new Map<number, ProblemCode[]>();
  for (const code of codes) byStatus.set(PROBLEMS[code].status, [...(byStatus.get(PROBLEMS[code].status) ?? []), code]);
  const out: Record<string, Json> = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    const hasErrors = list.includes('validation-failed');
    const headers = { ...statusHeaders(status, list, ctx), ...extraHeaders[status] };
    out[String(status)] = {
      description: list.map((c) => `\`${c}\`: ${PROBLEMS[c].title}. ${PROBLEMS[c].description}`).join('\n\n'),
      ...(Object.keys(headers).length ? { headers } : {}),
      content: {
        'application/problem+json': { schema: hasErrors ? validationProblemSchema(ctx) : problemSchema(ctx) },
        'text/html': { schema: { type: 'string', description: 'The same problem as a readable page, for a client that prefers text/html (a browser)' } },
      },
    };
  }
  return out;
}
