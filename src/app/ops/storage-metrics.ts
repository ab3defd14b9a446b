import type { FastifyBaseLogger } from 'fastify';
import type { Metric, Registry } from 'prom-client';
import type { InboxBacklog } from '../../store/inbox.js';
import type { StoreSize } from '../../store/store-size.js';
import type { AppContext } from '../context.js';
import { CachedMeasure } from './cached-measure.js';
import { registerReadinessMetric } from './readiness-metric.js';

/** How long a measurement of the database serves scrapes: Prometheus scrapes every 15 s or so, and sizes move slowly. */
const MAX_AGE_MS = 10_000;
/** Longest a scrape waits for a measurement; a slower one is reported by a later scrape. */
const WAIT_MS = 1000;

type Values = Array<{ labels: Record<string, string>; value: number }>;

/** The measurements behind the storage gauges of one server (tests make the next scrape measure again). */
export interface StorageMeasures {
  size?: CachedMeasure<StoreSize>;
  backlog: CachedMeasure<InboxBacklog[]>;
  /** The database ping behind `restwell_ready`. */
  ping: CachedMeasure<boolean>;
}

const byContext = new WeakMap<AppContext, StorageMeasures>();

/** The storage measurements of the server built on `ctx`, once {@link registerStorageMetrics} has run. */
export function storageMeasures(ctx: AppContext): StorageMeasures | undefined {
  return byContext.get(ctx);
}

/**
 * Readiness as a gauge (see registerReadinessMetric), the database's size, the event log's, and the inbound deliveries waiting per configured source,
 * measured at scrape time from the catalog (never by reading the data) and cached for
 * {@link MAX_AGE_MS}, so a storm of scrapes costs at most one query of each kind per interval.
 * The size gauges exist only where the store can measure itself (`Store.size`); a figure the
 * engine cannot give cheaply (the event log's bytes on SQLite) has no sample.
 */
export function registerStorageMetrics(registry: Registry, ctx: AppContext, log: FastifyBaseLogger): void {
  const warn = (what: string) => (err: unknown) => log.warn({ err }, `metrics: measuring ${what} failed; its gauges have no sample until a measurement succeeds`);
  const store = ctx.store;
  const size = store.size && new CachedMeasure(store.size, { maxAgeMs: MAX_AGE_MS, waitMs: WAIT_MS, onError: warn('the database size') });
  const backlog = new CachedMeasure(() => store.inbox.backlog(), { maxAgeMs: MAX_AGE_MS, waitMs: WAIT_MS, onError: warn('the inbound backlog') });
  byContext.set(ctx, { size, backlog, ping: registerReadinessMetric(registry, ctx) });
  if (size) {
    const one = (pick: (s: StoreSize) => number | undefined) => async (): Promise<Values> => {
      const measured = await size.get();
      const value = measured && pick(measured);
      return value === undefined ? [] : [{ labels: {}, value }];
    };
    gauge(registry, 'restwell_database_size_bytes', 'Bytes the database takes (SQLite: the file and its WAL; PostgreSQL: the tables of Restwell\'s schema with indexes and TOAST), measured at most every 10 s', one((s) => s.databaseBytes));
    gauge(registry, 'restwell_event_log_rows', 'Events kept in the event log, estimated from the span of positions (newest - oldest + 1; on PostgreSQL an upper bound), measured at most every 10 s', one((s) => s.eventRows));
    gauge(registry, 'restwell_event_log_bytes', 'Bytes of the event log (table, indexes and partitions); no sample where the engine cannot tell without reading it (SQLite)', one((s) => s.eventBytes));
  }
  // Every configured source has a series (0 when nothing waits), so an alert on one never sees it vanish; other names in the table are not labels.
  const bySource = (pick: (b: InboxBacklog) => number) => async (): Promise<Values> => {
    const rows = await backlog.get();
    if (!rows) return [];
    const found = new Map(rows.map((r) => [r.source, r]));
    return [...ctx.webhooks.sources.keys()].map((source) => {
      const row = found.get(source);
      return { labels: { source }, value: row ? pick(row) : 0 };
    });
  };
  gauge(registry, 'restwell_inbound_pending_deliveries', 'Inbound webhook deliveries stored and waiting for their actions (first try or a retry), by configured source', bySource((b) => b.pending));
  gauge(registry, 'restwell_inbound_oldest_pending_seconds', 'Age of the oldest inbound delivery still waiting for its actions, by configured source (0 when none waits)', bySource((b) => Math.max(0, (Date.now() - Date.parse(b.oldestReceivedAt)) / 1000)));
}

/** A gauge whose samples are read when scraped (a prom-client Gauge always shows 0 when it has no labels and no value). */
function gauge(registry: Registry, name: string, help: string, values: () => Promise<Values>): void {
  const metric = { name, help, type: 'gauge' as const, aggregator: 'sum' as const, get: async () => ({ name, help, type: 'gauge' as const, aggregator: 'sum' as const, values: await values() }), reset: () => undefined };
  registry.registerMetric(metric as unknown as Metric);
}
