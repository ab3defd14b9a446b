import type { Share } from './cpu-profile.js';
import type { BenchSettings } from './settings.js';
import { runWrk, runTag, type WrkResult, type WrkScript } from './wrk.js';

/** What the profile of a missed row found. */
export type MissProfile =
  | {
      /** The flame graph, relative to the repository root. */
      svg: string;
      seconds: number;
      rps: number;
      /** The server's own CPU per request over the profiled window (µs; under the profiler, a few % more than without). */
      serverUs: number;
      /** Busy samples by phase of a request, and the hottest functions by self time. */
      phases: Share[];
      hottest: Share[];
      /** Other processes' CPU per request over the same window (µs), busiest first: the database server, wrk, anything else running. */
      others: Array<{ name: string; us: number }>;
    }
  | { error: string };

/** What one wrk run of a plan is told, so unique names and webhook ids never repeat across runs. */
export interface WrkRun {
  /** Unique per wrk run of this bench process (warm-up and measured windows get different tags). */
  tag: string;
  seconds: number;
  threads: number;
  /** The warm-up run's result, when this is the measured run after one (e.g. to size prepared requests). */
  warmup?: WrkResult;
}

/**
 * What one request of a row looks like. `method`/`path`/`body`/`headers` describe a single request
 * (the preflight sends one through fetch before the row is measured); `wrk` says how wrk sends the
 * load: a Lua script of bench/wrk/ and its arguments, per wrk run.
 */
export interface RequestPlan {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** A fixed path, or a function giving the path of each request. */
  path: string | (() => string);
  body?: () => string;
  /** Fixed headers, or a function called once per request, always before `body`. */
  headers?: Record<string, string> | (() => Record<string, string>);
  wrk: (run: WrkRun) => WrkScript | Promise<WrkScript>;
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
  /** wrk threads (`-t`) of the run. */
  threads?: number;
  /** Cores busy over the measured window: wrk's, and the server's (its main process) when known. */
  cpu?: { generator: number; server?: number };
  /** The script ran out of prepared requests before the window ended (the figures are then too low). */
  exhausted?: boolean;
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
  /** For a row that missed its target: where its server's time went under the same load (bench/explain.ts). */
  profile?: MissProfile;
}

/** True when a row's figures include failed requests, which must be flagged, never averaged in silently. */
export function hasFailures(m: Measurement | undefined): boolean {
  return !!m && (m.non2xx > 0 || m.errors > 0 || m.requests === 0);
}

/** True when a measured row must be flagged: failed requests, or a warning about what it measured. */
export function isFlagged(row: Row): boolean {
  return !!row.measurement && (hasFailures(row.measurement) || !!row.warning);
}

async function fire(url: string, plan: RequestPlan, settings: BenchSettings, seconds: number, serverPid?: number, warmup?: WrkResult): Promise<WrkResult> {
  const threads = settings.wrkThreads;
  const script = await plan.wrk({ tag: runTag(), seconds, threads, warmup });
  // json-server at 100k rows queues 32 writes of ~10 MB each: seconds of honest latency, not a timeout.
  return runWrk({ ...script, url, connections: settings.connections, seconds, threads, timeoutSeconds: 30, serverPid });
}

/**
 * Waits until the server answers a cheap request: a slow server (json-server at 100k rows) is still
 * working through the warm-up's last requests when wrk stops, and that backlog must not be
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

/** A wrk result as the report's Measurement. */
export function toMeasurement(r: WrkResult, settings: BenchSettings): Measurement {
  return {
    rps: r.rps,
    p50: r.p50,
    p99: r.p99,
    requests: r.requests,
    non2xx: r.non2xx,
    errors: r.errors,
    statusCodes: r.statusCodes,
    seconds: r.seconds,
    connections: settings.connections,
    threads: settings.wrkThreads,
    cpu: r.cpu,
    exhausted: r.exhausted,
  };
}

/**
 * Runs the warm-up (a wrk run whose results are thrown away), then the measured window, against `url`
 * with the same wrk settings as every other row. `warmup`/`duration` override the settings' values;
 * `serverPid` adds the server's CPU use to the figures.
 */
export async function measure(url: string, plan: RequestPlan, settings: BenchSettings, timing: { warmup?: number; duration?: number } = {}, serverPid?: number): Promise<Measurement> {
  const warmup = timing.warmup ?? (plan.method === 'GET' ? settings.warmup : settings.writeWarmup);
  let warm: WrkResult | undefined;
  if (warmup > 0) {
    warm = await fire(url, plan, settings, warmup, undefined);
    await drain(url);
  }
  const duration = timing.duration ?? settings.duration;
  return toMeasurement(await fire(url, plan, settings, duration, serverPid, warm), settings);
}

/** The server a paired row is compared with, and the request plan it gets (raw node:http, a fixed answer). */
export interface Partner {
  url: string;
  pid?: number;
  plan: RequestPlan;
}

/** One paired round: the partner's window and the row's, back to back. */
export interface PairedRound {
  partner: WrkResult;
  row: WrkResult;
}

/** The median of some figures (the mean of the middle two for an even count). */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** Server CPU per request in µs, from the cores it used over a window of `seconds` that answered `requests`. */
export function cpuUsPerRequest(cores: number, seconds: number, requests: number): number {
  return (cores * seconds * 1e6) / Math.max(requests, 1);
}

/** Several windows of one server as one measurement: req/s and latencies are medians, counts are sums. */
function combined(results: WrkResult[], settings: BenchSettings): Measurement {
  const statusCodes: Record<string, number> = {};
  for (const r of results) for (const [code, n] of Object.entries(r.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + n;
  const sum = (f: (r: WrkResult) => number) => results.reduce((n, r) => n + f(r), 0);
  const server = results.every((r) => r.cpu.server !== undefined) ? median(results.map((r) => r.cpu.server!)) : undefined;
  return {
    ...toMeasurement(results[0], settings),
    rps: median(results.map((r) => r.rps)),
    p50: median(results.map((r) => r.p50)),
    p99: median(results.map((r) => r.p99)),
    requests: sum((r) => r.requests),
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors),
    seconds: sum((r) => r.seconds),
    statusCodes,
    cpu: { generator: median(results.map((r) => r.cpu.generator)), server },
    exhausted: results.some((r) => r.exhausted),
  };
}

/**
 * Measures a row against its partner in `settings.pairedRounds` rounds of two back-to-back windows
 * (partner first in odd rounds, the row first in even ones, so a drift of the machine's speed falls on
 * both alike), after the row's usual warm-up. The ratio a target judges is the median of the rounds'
 * ratios: each compares two windows a few seconds apart, which a noisy shared machine moves far less
 * than it moves either server's req/s over the minutes of a whole run.
 */
export async function measurePaired(url: string, plan: RequestPlan, settings: BenchSettings, serverPid: number | undefined, partner: Partner): Promise<{ measurement: Measurement; rounds: PairedRound[]; ratio: number }> {
  const warmup = plan.method === 'GET' ? settings.warmup : settings.writeWarmup;
  const warm = warmup > 0 ? await fire(url, plan, settings, warmup, undefined) : undefined;
  await drain(url);
  const seconds = settings.pairedSeconds;
  const rounds: PairedRound[] = [];
  for (let i = 0; i < settings.pairedRounds; i++) {
    const runPartner = () => fire(partner.url, partner.plan, settings, seconds, partner.pid);
    const runRow = () => fire(url, plan, settings, seconds, serverPid, warm);
    if (i % 2 === 0) {
      const p = await runPartner();
      rounds.push({ partner: p, row: await runRow() });
    } else {
      const r = await runRow();
      rounds.push({ partner: await runPartner(), row: r });
    }
  }
  const ratio = median(rounds.map((r) => (r.partner.rps > 0 ? r.row.rps / r.partner.rps : 0)));
  return { measurement: combined(rounds.map((r) => r.row), settings), rounds, ratio };
}
