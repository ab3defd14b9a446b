import type { Metric, Registry } from 'prom-client';
import type { AppContext } from '../context.js';
import { CachedMeasure } from './cached-measure.js';
import { opsState } from './ops-state.js';

/** How long a database ping serves scrapes: a storm of scrapes is one `SELECT 1` per interval. */
const MAX_AGE_MS = 10_000;
/** Longest a scrape waits for the ping: a database slower than this is as good as away, for an alert. */
const WAIT_MS = 1000;

const NAME = 'restwell_ready';
const HELP = 'What GET /readyz would say, as 1 or 0: not shutting down, writes commit (the disk is not full), and the database answered (asked at most every 10 s)';

/**
 * `restwell_ready`: readiness as a gauge, so an alert needs no probe of its own (Prometheus
 * scrapes /metrics, not /readyz). The database is pinged at most once per {@link MAX_AGE_MS};
 * a ping that fails or takes longer than {@link WAIT_MS} counts as not ready.
 */
export function registerReadinessMetric(registry: Registry, ctx: AppContext): CachedMeasure<boolean> {
  const ping = new CachedMeasure(() => ctx.store.ping().then(() => true), { maxAgeMs: MAX_AGE_MS, waitMs: WAIT_MS });
  const state = opsState(ctx);
  const get = async () => {
    const ready = !state.draining && !ctx.store.storage.full && (await ping.get()) === true;
    return { name: NAME, help: HELP, type: 'gauge', aggregator: 'sum', values: [{ labels: {}, value: ready ? 1 : 0 }] };
  };
  registry.registerMetric({ name: NAME, help: HELP, type: 'gauge', aggregator: 'sum', get, reset: () => undefined } as unknown as Metric);
  return ping;
}
