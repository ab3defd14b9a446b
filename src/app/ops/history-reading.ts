import type { Counter, Metric } from 'prom-client';
import type { StoreSize } from '../../store/store-size.js';
import { UNMATCHED_ROUTE, type AppMetrics } from './app-metrics.js';
import type { CachedMeasure } from './cached-measure.js';
import type { TallyCounts } from './outcome-tally.js';

/** The counter of deliveries given up on, registered by the outbox metrics. */
const GIVEN_UP = 'restwell_webhook_deliveries_given_up_total';
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Requests of one route group since start: per status class, and per latency bucket. */
export interface GroupCounts {
  count: number;
  status4xx: number;
  status5xx: number;
  buckets: number[];
}

/**
 * The server's counters as they stand at one moment (totals since start), plus its gauges. Two
 * readings make a sample: their difference over the time between them.
 */
export interface Reading {
  /** Milliseconds since the epoch. */
  at: number;
  groups: Map<string, GroupCounts>;
  /** Successful writes (POST, PUT, PATCH, DELETE answered below 400) per resource. */
  writes: Map<string, number>;
  /** Inbound deliveries per outcome (every source together). */
  inbound: Map<string, number>;
  /** Outbound attempts per outcome, and deliveries given up on (every endpoint together). */
  outbound: Map<string, number>;
  givenUp: number;
  sources: Map<string, TallyCounts>;
  endpoints: Map<string, TallyCounts>;
  /** Event streams open now. */
  streams: number;
  /** From the store's own measurement (undefined where the engine cannot tell, or it failed). */
  databaseBytes?: number;
  eventRows?: number;
}

/** What a reading is taken from: the server's metrics and its gauges' sources. */
export interface ReadingSources {
  metrics: AppMetrics;
  /** The route group of a route pattern (see routeGroup). */
  group: (route: string) => string;
  /** The resource a route pattern serves, if any. */
  resource: (route: string) => string | undefined;
  openStreams: () => number;
  size?: CachedMeasure<StoreSize>;
}

/** Takes a reading: plain numbers copied out of the metrics (no request waits for it), and one cached size measurement. */
export async function takeReading(from: ReadingSources, at = Date.now()): Promise<Reading> {
  const groups = new Map<string, GroupCounts>();
  const writes = new Map<string, number>();
  for (const r of from.metrics.requests.snapshot()) {
    const name = from.group(r.route);
    let g = groups.get(name);
    if (!g) groups.set(name, (g = { count: 0, status4xx: 0, status5xx: 0, buckets: new Array(r.buckets.length).fill(0) }));
    const resource = WRITE_METHODS.has(r.method) ? from.resource(r.route) : undefined;
    for (const [status, n] of r.byStatus) {
      g.count += n;
      if (status >= 500) g.status5xx += n;
      else if (status >= 400) g.status4xx += n;
      else if (resource) writes.set(resource, (writes.get(resource) ?? 0) + n);
    }
    for (let i = 0; i < r.buckets.length; i++) g.buckets[i]! += r.buckets[i]!;
  }
  const inbound = await byLabel(from.metrics.inbound, 'outcome');
  const outbound = await byLabel(from.metrics.outbound, 'outcome');
  const givenUpMetric = from.metrics.registry.getSingleMetric(GIVEN_UP) as Counter | undefined;
  const givenUp = givenUpMetric ? sum((await givenUpMetric.get()).values.map((v) => v.value)) : 0;
  const size = await from.size?.get();
  return {
    at,
    groups,
    writes,
    inbound,
    outbound,
    givenUp,
    sources: from.metrics.sources.snapshot(),
    endpoints: from.metrics.endpoints.snapshot(),
    streams: from.openStreams(),
    ...(size ? { databaseBytes: size.databaseBytes, eventRows: size.eventRows } : {}),
  };
}

/** The reading of a server that has counted nothing yet (every counter starts at zero). */
export function emptyReading(at: number): Reading {
  return { at, groups: new Map(), writes: new Map(), inbound: new Map(), outbound: new Map(), givenUp: 0, sources: new Map(), endpoints: new Map(), streams: 0 };
}

/** A counter's values summed per value of one label. */
async function byLabel(counter: Metric, label: string): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const v of (await counter.get()).values) {
    const key = String(v.labels[label]);
    out.set(key, (out.get(key) ?? 0) + v.value);
  }
  return out;
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

/**
 * The dashboard's group of a route pattern: records (a resource's routes), inbound (webhook
 * receivers), outbound (webhook endpoints), events, auth, console, ops (probes, metrics), unmatched
 * (no route) and other (root, docs, OpenAPI). A handful of series, whatever the config holds.
 */
export function routeGroup(route: string, resources: ReadonlySet<string>): string {
  if (route === UNMATCHED_ROUTE) return 'unmatched';
  const first = route.split('/')[1] ?? '';
  if (resources.has(first)) return 'records';
  if (first === 'webhooks') return 'inbound';
  if (first === 'webhook-endpoints') return 'outbound';
  if (first === 'events') return 'events';
  if (first === 'oauth' || first === 'api-keys' || first === 'me' || first === '.well-known') return 'auth';
  if (first === '_') return 'console';
  if (first === 'metrics' || first === 'healthz' || first === 'readyz') return 'ops';
  return 'other';
}
