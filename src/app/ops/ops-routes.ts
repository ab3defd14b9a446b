import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RestwellConfig } from '../../config/types.js';
import { sendProblem } from '../../http/problems.js';
import { StoreFullError } from '../../store/errors.js';
import { documented, type Route } from '../../http/route.js';
import type { AppContext } from '../context.js';
import { historyDocument } from './history-document.js';
import { historyFilter } from './history-filter.js';
import { OPS_OPERATIONS } from './ops-operations.js';
import { opsState, SHUTTING_DOWN } from './ops-state.js';

/** The scope a token needs to scrape `/metrics` (unless `server.metrics: public`). */
export const METRICS_SCOPE = 'metrics:read';
/** Longest a readiness probe waits for the database before calling it unreachable. */
const READY_TIMEOUT_MS = 2000;

/**
 * The operations rows: liveness and readiness probes (public, never cached) and the Prometheus
 * metrics, which need a token with `metrics:read` unless the config makes them public (or off).
 */
export function opsRoutes(config?: Pick<RestwellConfig, 'server'>): Route<AppContext>[] {
  const metrics = config?.server.metrics ?? 'token';
  return documented<Route<AppContext>>(
    [
      { method: 'GET', path: '/healthz', operationId: 'getHealth', summary: 'Liveness: the process is up (never touches the database)', handler: () => health, kind: 'meta' },
      { method: 'GET', path: '/readyz', operationId: 'getReadiness', summary: 'Readiness: the database answers, writes can commit (its disk is not full) and the server is not shutting down', handler: readiness, kind: 'meta' },
      ...(metrics === 'off'
        ? []
        : [
            { method: 'GET' as const, path: '/metrics', operationId: 'getMetrics', summary: 'Prometheus metrics of this process (text format 0.0.4)', handler: scrape, kind: 'meta' as const, ...(metrics === 'public' ? {} : { access: [METRICS_SCOPE] }) },
            { method: 'GET' as const, path: '/metrics/history', operationId: 'getMetricsHistory', summary: 'The last hour of this node\'s metrics as JSON series (the console\'s dashboard)', handler: history, kind: 'meta' as const, ...(metrics === 'public' ? {} : { access: [METRICS_SCOPE] }) },
          ]),
    ],
    OPS_OPERATIONS,
  );
}

async function health(_request: FastifyRequest, reply: FastifyReply) {
  return reply.header('cache-control', 'no-store').send({ status: 'ok' });
}

function readiness(ctx: AppContext) {
  const state = opsState(ctx);
  return async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('cache-control', 'no-store');
    if (state.draining) {
      reply.header('retry-after', SHUTTING_DOWN.retryAfter);
      return sendProblem(request, reply, 'shutting-down', SHUTTING_DOWN.detail);
    }
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        // While the last write found the disk full, ask again with a write of the store's own: a
        // node taken out of service gets no client writes that could tell it space is back.
        ctx.store.storage.full ? ctx.store.probeStorage() : ctx.store.ping(),
        new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${READY_TIMEOUT_MS / 1000} s`)), READY_TIMEOUT_MS))),
      ]);
    } catch (err) {
      if (err instanceof StoreFullError) {
        reply.header('retry-after', String(err.retryAfterSeconds));
        return sendProblem(request, reply, 'unavailable', 'writes cannot commit: the database has no storage space left; reads still work');
      }
      reply.header('retry-after', '5');
      return sendProblem(request, reply, 'unavailable', `the database does not answer: ${(err as Error).message}`);
    } finally {
      clearTimeout(timer);
    }
    return reply.send({ status: 'ok' });
  };
}

function history(ctx: AppContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const h = opsState(ctx).history!;
    const doc = historyDocument(h.node, h.intervalMs, h.capacity, h.list(), historyFilter(request.query as Record<string, unknown>));
    return reply.header('cache-control', 'no-store').send(doc);
  };
}

function scrape(ctx: AppContext) {
  const metrics = opsState(ctx).metrics!;
  return async (_request: FastifyRequest, reply: FastifyReply) => {
    const text = await metrics.scrape();
    return reply.header('cache-control', 'no-store').type(metrics.contentType).send(text);
  };
}
