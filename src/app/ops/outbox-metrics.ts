import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { AppContext } from '../context.js';
import { CachedMeasure } from './cached-measure.js';

/** How long one backlog read serves scrapes: several scrapers (or a scrape per gauge) cost one query. */
const BACKLOG_CACHE_MS = 1000;

/**
 * The outbox's metrics, per webhook endpoint (its id: a handful of series per endpoint, never one
 * per delivery): pending deliveries and the oldest one's age, read from the store at scrape time
 * (one grouped query, cached for a second, shared by the two gauges), and deliveries given up on
 * by this process. A backlog that cannot be read leaves the gauges without series (and is logged),
 * rather than failing the whole scrape.
 */
export function registerOutboxMetrics(app: FastifyInstance, ctx: AppContext, registry: Registry): void {
  const backlog = new CachedMeasure(() => ctx.store.outbox.backlog(), {
    maxAgeMs: BACKLOG_CACHE_MS,
    // As long as Prometheus's own scrape timeout: a slow read still answers this scrape.
    waitMs: 10_000,
    onError: (err) => app.log.warn({ err: (err as Error).message }, 'webhook backlog metrics could not be read from the store'),
  });
  new Gauge({
    name: 'restwell_webhook_deliveries_pending',
    help: 'Outbound webhook deliveries pending (not yet delivered nor given up on: waiting, being sent or waiting for a retry), by endpoint id',
    labelNames: ['endpoint'],
    registers: [registry],
    async collect() {
      const rows = await backlog.get();
      this.reset();
      for (const b of rows ?? []) this.set({ endpoint: b.endpointId }, b.pending);
    },
  });
  new Gauge({
    name: 'restwell_webhook_oldest_pending_delivery_age_seconds',
    help: 'Age of the oldest pending outbound webhook delivery (the backlog\'s age; 0 when none is pending), by endpoint id',
    labelNames: ['endpoint'],
    registers: [registry],
    async collect() {
      const rows = await backlog.get();
      this.reset();
      const now = Date.now();
      for (const b of rows ?? []) this.set({ endpoint: b.endpointId }, b.oldestCreatedAt ? Math.max(0, (now - Date.parse(b.oldestCreatedAt)) / 1000) : 0);
    },
  });
  const givenUp = new Counter({ name: 'restwell_webhook_deliveries_given_up_total', help: 'Outbound webhook deliveries this process gave up on (retries used up, or a 410 Gone), by endpoint id', labelNames: ['endpoint'], registers: [registry] });
  ctx.outbound.onGiveUp = (endpoint) => givenUp.inc({ endpoint });
  app.addHook('onClose', async () => void (ctx.outbound.onGiveUp = undefined));
}
