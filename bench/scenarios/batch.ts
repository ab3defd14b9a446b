import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { notRun, reason, seededDatabase } from '../context.js';
import { writeRestwellConfig } from '../data.js';
import { GROUPS, SERVERS } from '../groups.js';
import { measure, median, type Measurement, type RequestPlan, type Row } from '../load.js';
import { createCharacter } from '../requests.js';
import type { ServerProcess } from '../processes.js';
import { startRestwell, withServer } from '../servers.js';
import type { BenchContext } from '../settings.js';
import { headerArgs } from '../wrk.js';
import { BASE_URL, dropSchema, reachable } from './postgres.js';

/** Records per request of the batch and bulk rows (the default server.batch.maxRequests). */
const PER_REQUEST = 100;

let sent = 0;

/** `count` new characters per POST: a `/batch` of POST sub-requests, or a JSON array to the collection (bench/wrk/batch.lua). */
function manyCharacters(kind: 'batch' | 'array', count: number): RequestPlan {
  const path = kind === 'batch' ? '/batch' : '/characters';
  return {
    method: 'POST',
    path,
    headers: { 'content-type': 'application/json' },
    body: () => {
      // The preflight's names ("many <pid> <n>") never meet wrk's ("bench <run tag>-<thread>-<n>").
      const records = Array.from({ length: count }, () => ({ name: `many ${process.pid} ${++sent}`, number: '+1-555-0199' }));
      return JSON.stringify(kind === 'batch' ? { requests: records.map((body) => ({ method: 'POST', url: '/characters', body })) } : records);
    },
    wrk: (run) => ({ script: 'batch.lua', args: [kind, path, run.tag, String(count), ...headerArgs(undefined)] }),
  };
}

/**
 * Records/s through `POST /batch` of 100 creates and `POST /characters` with an array of 100, each
 * paired with single POSTs to the same server (alternating rounds, the median of the rounds'
 * ratios, see alternate): req/s × 100 against single POSTs' req/s. On SQLite, and on
 * PostgreSQL when the bench's database is reachable (as the PostgreSQL section's).
 */
export async function batchRows(ctx: BenchContext): Promise<Row[]> {
  const rows: Row[] = [];
  const sqlite = await seededDatabase(ctx, 'batch', ctx.settings.sizes.small);
  await withServer(startRestwell(sqlite), async (rw) => rows.push(...(await measureBoth(ctx, rw, SERVERS.restwell))));

  const schema = `rw_bench_${randomBytes(5).toString('hex')}`;
  const url = new URL(BASE_URL);
  const unreachable = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname) ? await reachable() : `not on a loopback address: ${url.hostname}`;
  if (unreachable) {
    const why = `n/a (PostgreSQL: ${unreachable})`;
    return [...rows, notRun(GROUPS.batch100.id, GROUPS.batch100.label, SERVERS.postgres, why), notRun(GROUPS.bulk100.id, GROUPS.bulk100.label, SERVERS.postgres, why)];
  }
  url.searchParams.set('schema', schema);
  const config = writeRestwellConfig(join(ctx.work, 'batch-postgres.config.json'));
  try {
    await withServer(startRestwell({ db: url.toString(), config, name: SERVERS.postgres }), async (rw) => rows.push(...(await measureBoth(ctx, rw, SERVERS.postgres))));
  } catch (err) {
    rows.push(notRun(GROUPS.batch100.id, GROUPS.batch100.label, SERVERS.postgres, `n/a (${reason(err)})`));
  } finally {
    await dropSchema(schema);
  }
  return rows;
}

async function measureBoth(ctx: BenchContext, rw: ServerProcess, server: string): Promise<Row[]> {
  return [await manyRow(ctx, rw, server, 'batch'), await manyRow(ctx, rw, server, 'array')];
}

/** One row: the many-record plan paired with single POSTs to the same server; records/s in the note and figures. */
async function manyRow(ctx: BenchContext, rw: ServerProcess, server: string, kind: 'batch' | 'array'): Promise<Row> {
  const group = kind === 'batch' ? GROUPS.batch100 : GROUPS.bulk100;
  const plan = manyCharacters(kind, PER_REQUEST);
  const base = { group: group.id, scenario: group.label, server };
  const first = await fetch(`${rw.url}${plan.path as string}`, { method: 'POST', headers: plan.headers as Record<string, string>, body: plan.body!() });
  if (first.status !== 200) return { ...base, note: `n/a (first request got ${first.status}: ${(await first.text()).slice(0, 160)})`, warning: 'the first request failed' };
  await first.arrayBuffer();
  ctx.progress(`${server.padEnd(26)} ${group.label}`);
  const { measurement, rounds, ratio } = await alternate(ctx, rw, plan, createCharacter());
  const fmt = (n: number) => Math.round(n).toLocaleString('en');
  const records = measurement.rps * PER_REQUEST;
  const single = median(rounds.map((r) => r.partner.rps));
  const partnerFailed = rounds.some((r) => r.partner.non2xx > 0 || r.partner.errors > 0);
  const figures = { recordsPerSecond: records, singlePostRecordsPerSecond: single, recordRatio: ratio * PER_REQUEST, pairedRounds: rounds.length };
  const note =
    `${fmt(records)} records/s (${PER_REQUEST} per request) against ${fmt(single)} records/s through single POSTs to the same server: ` +
    `${(ratio * PER_REQUEST).toFixed(1)}x (median of ${rounds.length} alternating ${ctx.settings.pairedSeconds} s rounds, each window after its own warm-up: ` +
    rounds.map((r) => `${fmt(r.row.rps * PER_REQUEST)} / ${fmt(r.partner.rps)}`).join(', ') +
    ' records/s)';
  return { ...base, measurement, figures, note, ...(partnerFailed ? { warning: 'some single POSTs of the pairing failed' } : {}) };
}

/**
 * The row's plan and single POSTs to the same server in alternating rounds (single first in odd
 * rounds), each window after a warm-up of its own and a drain: a window of 100-record requests
 * leaves a backlog the server works off after wrk stops, which must not be charged to the next
 * window (measurePaired's partner is another server, so it does not need this). The ratio is the
 * median of the rounds' ratios; req/s and latencies are the row windows' medians.
 */
async function alternate(ctx: BenchContext, rw: ServerProcess, plan: RequestPlan, single: RequestPlan) {
  const { settings } = ctx;
  const window = (p: RequestPlan) => measure(rw.url, p, settings, { warmup: settings.writeWarmup, duration: settings.pairedSeconds }, rw.child.pid);
  const rounds: Array<{ row: Measurement; partner: Measurement }> = [];
  for (let i = 0; i < settings.pairedRounds; i++) {
    if (i % 2 === 0) {
      const partner = await window(single);
      rounds.push({ partner, row: await window(plan) });
    } else {
      const row = await window(plan);
      rounds.push({ row, partner: await window(single) });
    }
  }
  const rows = rounds.map((r) => r.row);
  const measurement: Measurement = {
    ...rows[0],
    rps: median(rows.map((r) => r.rps)),
    p50: median(rows.map((r) => r.p50)),
    p99: median(rows.map((r) => r.p99)),
    requests: rows.reduce((n, r) => n + r.requests, 0),
    non2xx: rows.reduce((n, r) => n + r.non2xx, 0),
    errors: rows.reduce((n, r) => n + r.errors, 0),
    seconds: rows.reduce((n, r) => n + r.seconds, 0),
  };
  const ratio = median(rounds.map((r) => (r.partner.rps > 0 ? r.row.rps / r.partner.rps : 0)));
  return { measurement, rounds, ratio };
}
