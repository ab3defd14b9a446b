import type { AppContext } from '../context.js';
import { AppMetrics } from './app-metrics.js';
import type { MetricsHistory } from './metrics-history.js';

/** The operational state of one server: whether it is draining for shutdown, and its metrics. */
export interface OpsState {
  /** Set when shutdown begins: `/readyz` answers 503 and new requests are refused from then on. */
  draining: boolean;
  /** Absent when `server.metrics` is `off`. */
  metrics?: AppMetrics;
  /** The short history behind `GET /metrics/history` (absent, like the metrics, when `server.metrics` is `off`). */
  history?: MetricsHistory;
}

/** What a request is told once shutdown begins (a 503 `shutting-down`), wherever it is refused. */
export const SHUTTING_DOWN = {
  detail: 'this server is shutting down and takes no new requests; send them to another instance',
  /** Seconds, for Retry-After: time enough for a load balancer to send the retry elsewhere. */
  retryAfter: '5',
};

const byContext = new WeakMap<AppContext, OpsState>();

/** The ops state of the server built on `ctx` (one per server, however many share a process). */
export function opsState(ctx: AppContext): OpsState {
  let state = byContext.get(ctx);
  if (!state) byContext.set(ctx, (state = { draining: false, metrics: ctx.config.server.metrics === 'off' ? undefined : new AppMetrics() }));
  return state;
}
