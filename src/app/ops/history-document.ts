import type { KeySample, Sample } from './history-sample.js';
import type { HistoryNode } from './metrics-history.js';

/** A series: one value per sample time, null where there is none (a gap in the chart). */
export type Series = Array<number | null>;

/** The series of one source's or endpoint's outcomes (the webhook pages' sparklines). */
export interface KeySeries {
  count: Series;
  successRate: Series;
  p50Ms: Series;
  p99Ms: Series;
}

/** `GET /metrics/history`: this node's samples as columns, each series as long as `time`. */
export interface HistoryDocument {
  node: HistoryNode;
  intervalSeconds: number;
  keepSeconds: number;
  /** Sample times, seconds since the epoch (with milliseconds), oldest first. */
  time: number[];
  requests: Record<string, { rate: Series; p50Ms: Series; p99Ms: Series }>;
  errors: { '4xx': Series; '5xx': Series };
  writes: Record<string, Series>;
  inbound: Record<string, Series>;
  outbound: { delivered: Series; retrying: Series; failed: Series; p50Ms: Series; p99Ms: Series };
  streams: Series;
  eventRows: Series;
  eventGrowth: Series;
  databaseBytes: Series;
  sources: Record<string, KeySeries>;
  endpoints: Record<string, KeySeries>;
}

/** What a request narrows the document to: samples after `since` (epoch seconds), one endpoint's or one source's series. */
export interface HistoryFilter {
  since?: number;
  endpoint?: string;
  source?: string;
}

/**
 * Turns the samples into columns (the shape uPlot draws: one x array, one array per line). A key
 * (route group, resource, outcome) absent from a sample counts 0 there; a latency or success rate
 * with nothing measured is null. With `endpoint` or `source`, only that key's series are kept
 * under `endpoints` or `sources` (the others are empty).
 */
export function historyDocument(node: HistoryNode, intervalMs: number, capacity: number, all: readonly Sample[], filter: HistoryFilter = {}): HistoryDocument {
  const samples = filter.since === undefined ? all : all.filter((s) => s.t > filter.since!);
  const column = (pick: (s: Sample) => number | undefined): Series => samples.map((s) => pick(s) ?? null);
  const keysOf = (pick: (s: Sample) => Record<string, unknown>) => [...new Set(samples.flatMap((s) => Object.keys(pick(s))))].sort();
  const rates = (pick: (s: Sample) => Record<string, number>) => Object.fromEntries(keysOf(pick).map((k) => [k, column((s) => pick(s)[k] ?? 0)]));
  const keySeries = (pick: (s: Sample) => Record<string, KeySample>, only?: string) =>
    Object.fromEntries(
      keysOf(pick)
        .filter((k) => only === undefined || k === only)
        .map((k): [string, KeySeries] => [k, { count: column((s) => pick(s)[k]?.count ?? 0), successRate: column((s) => pick(s)[k]?.successRate), p50Ms: column((s) => pick(s)[k]?.p50Ms), p99Ms: column((s) => pick(s)[k]?.p99Ms) }]),
    );
  const narrowed = filter.endpoint !== undefined || filter.source !== undefined;
  return {
    node,
    intervalSeconds: intervalMs / 1000,
    keepSeconds: (capacity * intervalMs) / 1000,
    time: samples.map((s) => s.t),
    requests: Object.fromEntries(
      keysOf((s) => s.groups).map((g) => [g, { rate: column((s) => s.groups[g]?.rate ?? 0), p50Ms: column((s) => s.groups[g]?.p50Ms), p99Ms: column((s) => s.groups[g]?.p99Ms) }]),
    ),
    errors: { '4xx': column((s) => s.errors['4xx']), '5xx': column((s) => s.errors['5xx']) },
    writes: rates((s) => s.writes),
    inbound: rates((s) => s.inbound),
    outbound: {
      delivered: column((s) => s.outbound.delivered),
      retrying: column((s) => s.outbound.retrying),
      failed: column((s) => s.outbound.failed),
      p50Ms: column((s) => s.outbound.p50Ms),
      p99Ms: column((s) => s.outbound.p99Ms),
    },
    streams: column((s) => s.streams),
    eventRows: column((s) => s.eventRows),
    eventGrowth: column((s) => s.eventGrowth),
    databaseBytes: column((s) => s.databaseBytes),
    sources: narrowed && filter.source === undefined ? {} : keySeries((s) => s.sources, filter.source),
    endpoints: narrowed && filter.endpoint === undefined ? {} : keySeries((s) => s.endpoints, filter.endpoint),
  };
}
