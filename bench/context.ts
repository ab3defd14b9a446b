import { join } from 'node:path';
import { characterName, characterNumber, writeRestwellConfig } from './data.js';
import { profileMiss, type Restart } from './explain.js';
import { cpuUsPerRequest, measure, measurePaired, median, type Measurement, type RequestPlan, type Row } from './load.js';
import { createCharacter, getById, preflight } from './requests.js';
import { partnerRawHttp } from './servers.js';
import { ratioTargetOf, rowMissesTarget } from './targets.js';
import type { WrkResult } from './wrk.js';
import { seedSqlite } from './seed-sqlite.js';
import type { BenchContext } from './settings.js';

/** What every scenario gets: the settings, a scratch directory of this run, and a progress line. */
/** What one row measures. */
export interface RowSpec {
  group: string;
  scenario: string;
  server: string;
  ceiling?: Row['ceiling'];
  url: string;
  plan: RequestPlan;
  timing?: { warmup?: number; duration?: number };
  /** Checks the first response's body; returns what is wrong with it (named in the row's note). */
  check?: (body: string) => string | undefined;
  /** Optional rows: a failing first request means the feature is not usable yet; report, don't measure. */
  skipIfPreflightFails?: boolean;
  /** The server's process id: its CPU use over the measured window goes into the row's note. */
  pid?: number;
  /** Starts the row's server again (same data and config) with node flags: a row that misses its target is then profiled. */
  restart?: Restart;
  /**
   * Measured in paired rounds with raw node:http (measurePaired) even without a ratio target of its own:
   * rows a target compares with a paired row (POST at 100k and 1M against POST at 1k) are measured alike.
   */
  pair?: boolean;
}

/** Measures one row; a first request that fails is named in the row's note (and flags the row). */
export async function runRow(ctx: BenchContext, spec: RowSpec): Promise<Row> {
  const base = { group: spec.group, scenario: spec.scenario, server: spec.server, ceiling: spec.ceiling };
  const first = await preflight(spec.url, spec.plan);
  const failure = first.ok
    ? spec.check?.(first.body)
    : `first request got ${first.status || 'no answer'}: ${first.body.replace(/\s+/g, ' ').slice(0, 160)}`;
  if (failure && spec.skipIfPreflightFails) return { ...base, note: `n/a (${failure})` };
  ctx.progress(`${spec.server.padEnd(26)} ${spec.scenario}`);
  const paired = spec.ceiling && (spec.pair || ratioTargetOf(spec.group, spec.server)) ? await pairedRow(ctx, spec) : undefined;
  const measurement = paired?.measurement ?? (await measure(spec.url, spec.plan, ctx.settings, spec.timing, spec.pid));
  const ranOut = measurement.exhausted ? 'wrk ran out of prepared requests before the window ended: req/s is too low, rerun' : undefined;
  const row: Row = { ...base, measurement, warning: [failure, ranOut].filter(Boolean).join('; ') || undefined, ...paired?.extra };
  if (spec.restart && ctx.settings.profileMisses && rowMissesTarget(row)) row.profile = await profileMiss(ctx, row, spec.plan, spec.restart);
  return row;
}

/** CPU µs per request of one wrk window (NaN when the server's CPU was not read). */
const usPerRequest = (r: WrkResult) => cpuUsPerRequest(r.cpu.server ?? Number.NaN, r.seconds, r.requests);

/** A row a ratio target judges, measured in rounds alternating with raw node:http (see measurePaired). */
async function pairedRow(ctx: BenchContext, spec: RowSpec): Promise<{ measurement: Measurement; extra: Pick<Row, 'figures' | 'note'> }> {
  const raw = await partnerRawHttp();
  const partner = { url: raw.url, pid: raw.child.pid, plan: spec.ceiling === 'post' ? createCharacter() : getById(ctx.settings.sizes.small) };
  const { measurement, rounds, ratio } = await measurePaired(spec.url, spec.plan, ctx.settings, spec.pid, partner);
  const figures = {
    pairedRatio: ratio,
    pairedRounds: rounds.length,
    partnerRps: median(rounds.map((r) => r.partner.rps)),
    rowUs: median(rounds.map((r) => usPerRequest(r.row))),
    partnerUs: median(rounds.map((r) => usPerRequest(r.partner))),
  };
  const fmt = (n: number) => Math.round(n).toLocaleString('en');
  const cpu = Number.isFinite(figures.rowUs) && Number.isFinite(figures.partnerUs) ? `; server CPU ${figures.rowUs.toFixed(0)} µs/request against raw's ${figures.partnerUs.toFixed(0)}` : '';
  const note =
    `paired with raw node:http in ${rounds.length} alternating ${ctx.settings.pairedSeconds} s rounds: ` +
    rounds.map((r) => `${fmt(r.row.rps)} / ${fmt(r.partner.rps)}`).join(', ') +
    ` req/s → ratio ${ratio.toFixed(2)}x (median)${cpu}`;
  return { measurement, extra: { figures, note } };
}

/** A row that did not run, with the reason shown in the table instead of figures. */
export function notRun(group: string, scenario: string, server: string, reason: string, ceiling?: Row['ceiling']): Row {
  return { group, scenario, server, ceiling, note: reason };
}

/** A fresh SQLite database with `count` seeded characters and the config file to serve it with. */
export async function seededDatabase(ctx: BenchContext, name: string, count: number, config?: { extra?: Record<string, unknown>; resource?: Record<string, unknown> }): Promise<{ db: string; config: string }> {
  const configFile = writeRestwellConfig(join(ctx.work, `${name}.config.json`), config?.extra, config?.resource);
  const db = join(ctx.work, `${name}.db`);
  const seconds = await seedSqlite(configFile, db, count);
  ctx.progress(`seeded ${count.toLocaleString('en')} characters into ${name}.db in ${seconds.toFixed(1)} s`);
  return { db, config: configFile };
}

/** An error in one line for a table cell: its first line and, for a server that would not start, its last words. */
export function reason(err: unknown): string {
  const lines = String((err as Error)?.message ?? err).split('\n').map((l) => l.trim()).filter(Boolean);
  // A crashed node process ends with its version line; the error line above it says what happened.
  const rest = lines.slice(1);
  const telling = rest.find((l) => /^restwell:|error/i.test(l) && !/^\s*at /.test(l)) ?? rest[rest.length - 1];
  const text = telling ? `${lines[0]}: ${telling}` : (lines[0] ?? 'failed');
  return text.length > 220 ? `${text.slice(0, 217)}...` : text;
}

/** Creates `count` characters through the API (for engines the bench cannot seed directly), 16 at a time. */
export async function seedOverHttp(url: string, count: number, headers: Record<string, string> = {}): Promise<void> {
  let next = 1;
  const worker = async () => {
    while (next <= count) {
      const i = next++;
      const res = await fetch(`${url}/characters`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ name: characterName(i), number: characterNumber(i) }),
      });
      const body = await res.text();
      if (res.status !== 201) throw new Error(`seeding POST /characters got ${res.status}: ${body.slice(0, 160)}`);
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
}
