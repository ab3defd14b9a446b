import autocannon, { type RawRequest } from 'autocannon';
import type { BenchSettings } from './settings.js';

/** What one request of a row looks like; `next` is called per request (unique bodies, rotating ids). */
export interface RequestPlan {
  method: 'GET' | 'POST';
  /** A fixed path, or a function giving the path of each request. */
  path: string | (() => string);
  body?: () => string;
  /** Fixed headers, or a function called once per request, always before `body`. */
  headers?: Record<string, string> | (() => Record<string, string>);
}

/** The measured figures of one row. */
export interface Measurement {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  /** Connection errors and timeouts. */
  errors: number;
  statusCodes: Record<string, number>;
  seconds: number;
  connections: number;
}

/** One line of the results table. `measurement` is absent for a row that could not run. */
export interface Row {
  /** Rows with the same group are compared (ratio to json-server's row of the group). */
  group: string;
  scenario: string;
  server: string;
  /** Which raw node:http row is this row's ceiling. */
  ceiling?: 'get' | 'post';
  measurement?: Measurement;
  /** Why the row has no figures ('n/a (not built)', a start-up error, …) or a remark on its figures. */
  note?: string;
  /** Something wrong with the row's figures (e.g. the first response was not what was asked for): flagged. */
  warning?: string;
  /** Figures beyond req/s and latency that a target judges (named in the row's note too). */
  figures?: Record<string, number>;
}

/** True when a row's figures include failed requests, which must be flagged, never averaged in silently. */
export function hasFailures(m: Measurement | undefined): boolean {
  return !!m && (m.non2xx > 0 || m.errors > 0 || m.requests === 0);
}

/** True when a measured row must be flagged: failed requests, or a warning about what it measured. */
export function isFlagged(row: Row): boolean {
  return !!row.measurement && (hasFailures(row.measurement) || !!row.warning);
}

function toRaw(plan: RequestPlan): RawRequest {
  const headers = typeof plan.headers === 'function' ? plan.headers() : { ...plan.headers };
  if (plan.body) headers['content-type'] = 'application/json';
  return {
    method: plan.method,
    path: typeof plan.path === 'function' ? plan.path() : plan.path,
    headers,
    ...(plan.body ? { body: plan.body() } : {}),
  };
}

async function fire(url: string, plan: RequestPlan, connections: number, seconds: number) {
  return autocannon({
    url,
    connections,
    duration: seconds,
    // json-server at 100k rows queues 32 writes of ~10 MB each: seconds of honest latency, not a timeout.
    timeout: 30,
    requests: [{ setupRequest: (request) => ({ ...request, ...toRaw(plan) }) }],
  });
}

/**
 * Waits until the server answers a cheap request: a slow server (json-server at 100k rows) is still
 * working through the warm-up's last requests when autocannon stops, and that backlog must not be
 * charged to the measured window.
 */
async function drain(url: string): Promise<void> {
  try {
    const res = await fetch(`${url}/`, { signal: AbortSignal.timeout(120_000) });
    await res.arrayBuffer();
  } catch {
    // The measured run will show what is wrong.
  }
}

/**
 * Runs the warm-up (results thrown away), then the measured window, against `url` with the same
 * load generator settings as every other row. `warmup`/`duration` override the settings' values.
 */
export async function measure(url: string, plan: RequestPlan, settings: BenchSettings, timing: { warmup?: number; duration?: number } = {}): Promise<Measurement> {
  const warmup = timing.warmup ?? (plan.method === 'GET' ? settings.warmup : settings.writeWarmup);
  if (warmup > 0) {
    await fire(url, plan, settings.connections, warmup);
    await drain(url);
  }
  const duration = timing.duration ?? settings.duration;
  const r = await fire(url, plan, settings.connections, duration);
  const statusCodes = Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([code, s]) => [code, Number(s.count)]));
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors,
    statusCodes,
    seconds: duration,
    connections: settings.connections,
  };
}
