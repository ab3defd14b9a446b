import { histogramQuantile } from './histogram-quantile.js';
import type { Reading } from './history-reading.js';
import type { TallyCounts } from './outcome-tally.js';

/** Requests of one route group during a sample's interval: per second, and latency quantiles in ms. */
export interface GroupSample {
  rate: number;
  p50Ms?: number;
  p99Ms?: number;
}

/** Outcomes of one inbound source or outbound endpoint during an interval. */
export interface KeySample {
  count: number;
  /** Share (0..1) that succeeded. */
  successRate: number;
  p50Ms?: number;
  p99Ms?: number;
}

/**
 * What happened between two readings, as rates per second (counters) and the later reading's
 * values (gauges). Keys with nothing to say (a source with no delivery) are left out.
 */
export interface Sample {
  /** The end of the interval, in seconds since the epoch (to the millisecond: samples a test takes back to back stay apart). */
  t: number;
  groups: Record<string, GroupSample>;
  errors: { '4xx': number; '5xx': number };
  writes: Record<string, number>;
  inbound: Record<string, number>;
  /** Attempts delivered, attempts failed that will be retried, deliveries given up on: per second. */
  outbound: { delivered: number; retrying: number; failed: number; p50Ms?: number; p99Ms?: number };
  streams: number;
  databaseBytes?: number;
  eventRows?: number;
  /** Events appended per second (from the log's row estimate). */
  eventGrowth?: number;
  sources: Record<string, KeySample>;
  endpoints: Record<string, KeySample>;
}

/** The sample of the interval from `before` to `after`; `bounds` are the latency buckets' upper bounds in seconds. */
export function diffReadings(before: Reading, after: Reading, bounds: readonly number[]): Sample {
  // Never divide by zero, even when two readings share a millisecond (a test triggering samples back to back).
  const seconds = Math.max(0.001, (after.at - before.at) / 1000);
  const rate = (n: number) => Math.max(0, n) / seconds;
  const ms = (q: number, counts: number[]) => {
    const s = histogramQuantile(q, bounds, counts);
    return s === undefined ? undefined : round(s * 1000);
  };
  const groups: Record<string, GroupSample> = {};
  let e4 = 0;
  let e5 = 0;
  for (const [name, g] of after.groups) {
    const was = before.groups.get(name);
    const counts = g.buckets.map((b, i) => b - (was?.buckets[i] ?? 0));
    const n = g.count - (was?.count ?? 0);
    e4 += g.status4xx - (was?.status4xx ?? 0);
    e5 += g.status5xx - (was?.status5xx ?? 0);
    if (n > 0) groups[name] = { rate: round(rate(n)), ...defined({ p50Ms: ms(0.5, counts), p99Ms: ms(0.99, counts) }) };
  }
  const outboundBuckets = new Array(bounds.length + 1).fill(0);
  const endpoints = keySamples(before.endpoints, after.endpoints, bounds, outboundBuckets);
  const failedAttempts = sumMap(after.outbound) - (after.outbound.get('delivered') ?? 0) - (sumMap(before.outbound) - (before.outbound.get('delivered') ?? 0));
  const givenUp = after.givenUp - before.givenUp;
  const eventGrowth = after.eventRows !== undefined && before.eventRows !== undefined ? round(rate(after.eventRows - before.eventRows)) : undefined;
  return {
    t: after.at / 1000,
    groups,
    errors: { '4xx': round(rate(e4)), '5xx': round(rate(e5)) },
    writes: rates(before.writes, after.writes, rate),
    inbound: rates(before.inbound, after.inbound, rate),
    outbound: {
      delivered: round(rate((after.outbound.get('delivered') ?? 0) - (before.outbound.get('delivered') ?? 0))),
      retrying: round(rate(failedAttempts - givenUp)),
      failed: round(rate(givenUp)),
      ...defined({ p50Ms: ms(0.5, outboundBuckets), p99Ms: ms(0.99, outboundBuckets) }),
    },
    streams: after.streams,
    ...defined({ databaseBytes: after.databaseBytes, eventRows: after.eventRows, eventGrowth }),
    sources: keySamples(before.sources, after.sources, bounds),
    endpoints,
  };
}

/** Per key with outcomes in the interval: count, success share and latency; adds their buckets to `total` when given. */
function keySamples(before: Map<string, TallyCounts>, after: Map<string, TallyCounts>, bounds: readonly number[], total?: number[]): Record<string, KeySample> {
  const out: Record<string, KeySample> = {};
  for (const [key, t] of after) {
    const was = before.get(key);
    const count = t.count - (was?.count ?? 0);
    if (count <= 0) continue;
    const counts = t.buckets.map((b, i) => b - (was?.buckets[i] ?? 0));
    if (total) counts.forEach((c, i) => (total[i] += c));
    const p50 = histogramQuantile(0.5, bounds, counts);
    const p99 = histogramQuantile(0.99, bounds, counts);
    out[key] = { count, successRate: round((t.ok - (was?.ok ?? 0)) / count), ...defined({ p50Ms: p50 === undefined ? undefined : round(p50 * 1000), p99Ms: p99 === undefined ? undefined : round(p99 * 1000) }) };
  }
  return out;
}

function rates(before: Map<string, number>, after: Map<string, number>, rate: (n: number) => number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [key, n] of after) out[key] = round(rate(n - (before.get(key) ?? 0)));
  return out;
}

function sumMap(m: Map<string, number>): number {
  let s = 0;
  for (const v of m.values()) s += v;
  return s;
}

/** Three significant decimals are plenty for a chart, and keep the JSON short. */
function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}

function defined<T extends Record<string, number | undefined>>(o: T): Partial<Record<keyof T, number>> {
  const out: Partial<Record<keyof T, number>> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k as keyof T] = v;
  return out;
}
