import type { FastifyInstance, FastifyReply, FastifyRequest, onResponseHookHandler, RouteOptions } from 'fastify';
import type { AppContext } from '../context.js';
import { inboundOutcome, UNMATCHED_ROUTE, type AppMetrics } from './app-metrics.js';
import { opsState } from './ops-state.js';
import { registerOutboxMetrics } from './outbox-metrics.js';
import { logRequest } from './request-log-line.js';
import { registerStreamMetrics } from './stream-metrics.js';
import { registerStorageMetrics, storageMeasures } from './storage-metrics.js';
import { routeGroup } from './history-reading.js';
import { MetricsHistory } from './metrics-history.js';
import { eventStreams } from '../../events/stream/event-streams.js';

type Done = () => void;
const OPS_HOOK = Symbol('restwell.ops');
/** The route whose answers are inbound webhook deliveries (counted by source and outcome too). */
const RECEIVE_ROUTE = '/webhooks/:source';

/**
 * Ties metrics and the request log to the app. Each route gets one `onResponse` hook whose route
 * label is fixed when the route is registered (the route table's pattern, never the URL), so a
 * request costs a label lookup, not a URL parse; requests no route matched share one label. Must
 * run before any route is registered. Nothing is added when neither metrics nor request logs are on.
 * A full disk is logged once when writes start failing for it and once when one commits again.
 */
export function registerOps(app: FastifyInstance, ctx: AppContext): void {
  const stopStorage = ctx.store.storage.listen((full) =>
    full ? app.log.warn({ storage: 'full', reason: full.reason }, `writes fail: ${full.message}; answering 507 until a write commits again`) : app.log.info({ storage: 'ok' }, 'writes commit again: storage space is available'),
  );
  app.addHook('onClose', async () => void stopStorage());
  const metrics = opsState(ctx).metrics;
  const logRequests = logsRequests(app);
  if (metrics) {
    const stopBatches = ctx.store.onCommitBatch?.((size) => metrics.commitBatch(size));
    registerOutboxMetrics(app, ctx, metrics.registry);
    ctx.outbound.onAttempt = (result, endpoint) => metrics.outboundAttempt(result.ok ? 'delivered' : result.blocked ? 'blocked' : result.statusCode === null ? 'network_error' : 'http_error', endpoint, result.latencyMs / 1000);
    const streams = eventStreams(ctx, app.log);
    const stopStreams = registerStreamMetrics(metrics.registry, streams);
    registerStorageMetrics(metrics.registry, ctx, app.log);
    const history = startHistory(app, ctx, metrics, () => streams.openStreams);
    app.addHook('onClose', async () => {
      history.stop();
      stopBatches?.();
      stopStreams();
      ctx.outbound.onAttempt = undefined;
    });
  }
  if (!metrics && !logRequests) return;
  app.addHook('onRoute', (options: RouteOptions) => {
    const hooks = options.onResponse === undefined ? [] : Array.isArray(options.onResponse) ? options.onResponse : [options.onResponse];
    if (hooks.some((h) => (h as { [OPS_HOOK]?: boolean })[OPS_HOOK])) return;
    const inbound = metrics && options.url === RECEIVE_ROUTE && options.method === 'POST' ? ctx : undefined;
    options.onResponse = [...hooks, responseHook(options.url, metrics, logRequests, inbound)];
  });
}

/** Starts the metrics history of this node (see MetricsHistory), kept in the ops state for its route. */
function startHistory(app: FastifyInstance, ctx: AppContext, metrics: AppMetrics, openStreams: () => number): MetricsHistory {
  const resources = new Set(ctx.resources.keys());
  const groups = new Map<string, string>();
  const history = new MetricsHistory(
    {
      metrics,
      // Route patterns are few and fixed: each is classified once.
      group: (route) => groups.get(route) ?? groups.set(route, routeGroup(route, resources)).get(route)!,
      resource: (route) => {
        const first = route.split('/')[1] ?? '';
        return resources.has(first) ? first : undefined;
      },
      openStreams,
      size: storageMeasures(ctx)?.size,
    },
    { ...ctx.config.server.metricsHistory, nodeId: ctx.outbound.attempts.node },
    (err) => app.log.warn({ err }, 'metrics history: a sample could not be taken; the next interval tries again'),
  );
  opsState(ctx).history = history;
  history.start();
  return history;
}

/** The hook of requests no route matched; register it in the scope of the not-found handler. */
export function unmatchedHook(app: FastifyInstance, ctx: AppContext): onResponseHookHandler | undefined {
  const metrics = opsState(ctx).metrics;
  const logRequests = logsRequests(app);
  return metrics || logRequests ? responseHook(UNMATCHED_ROUTE, metrics, logRequests) : undefined;
}

/** True when the app's logger writes `info` lines (Fastify's stand-in logger, when logging is off, has no levels). */
function logsRequests(app: FastifyInstance): boolean {
  const log = app.log as { isLevelEnabled?: (level: string) => boolean };
  return typeof log.isLevelEnabled === 'function' && log.isLevelEnabled('info');
}

function responseHook(route: string, metrics: AppMetrics | undefined, logRequests: boolean, inbound?: AppContext): onResponseHookHandler {
  const record = metrics?.route(route);
  const hook = (request: FastifyRequest, reply: FastifyReply, done: Done) => {
    const status = reply.statusCode;
    const ms = reply.elapsedTime;
    if (record) record(request.method, status, ms / 1000);
    if (inbound) countInbound(inbound, metrics!, request, status, ms / 1000);
    if (logRequests) logRequest(request, status, ms);
    done();
  };
  return Object.assign(hook, { [OPS_HOOK]: true });
}

function countInbound(ctx: AppContext, metrics: AppMetrics, request: FastifyRequest, status: number, seconds: number): void {
  const source = (request.params as { source?: string }).source;
  const outcome = inboundOutcome(status);
  // Only configured sources: a label per made-up name in the URL would be unbounded.
  if (source && outcome && ctx.webhooks.sources.has(source)) metrics.inboundDelivery(source, outcome, seconds);
}
