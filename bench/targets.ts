import { GROUPS, SERVERS } from './groups.js';
import { explainMiss } from './explain.js';
import { isFlagged, type Row } from './load.js';

/** One target of the issues, judged on this run's rows. */
export interface TargetResult {
  target: string;
  status: 'met' | 'not met' | 'n/a';
  detail: string;
  /** For a miss: why, from the profile taken of the row's server under the same load (bench/explain.ts). */
  why?: string[];
}

function find(rows: Row[], group: string, server: string): Row | undefined {
  return rows.find((r) => r.group === group && r.server === server);
}

/** The rows a target needs, or why they cannot be judged (missing, or flagged with failures). */
function usable(rows: Array<Row | undefined>): { ok: true } | { ok: false; status: TargetResult['status']; why: string } {
  for (const row of rows) {
    if (!row?.measurement) return { ok: false, status: 'n/a', why: `no figures for ${row ? `${row.server}: ${row.note}` : 'a needed row'}` };
    if (isFlagged(row)) return { ok: false, status: 'not met', why: `${row.server} / ${row.scenario} had failed requests or a bad response; its figures do not count` };
  }
  return { ok: true };
}

const fmt = (n: number) => Math.round(n).toLocaleString('en');
const pct = (n: number) => `${(n * 100).toFixed(0)}%`;

/** A figure that must reach at least `min`: met, or by how much it misses. */
function atLeast(target: string, value: number, min: number, shown: string, unit = '', format = fmt): TargetResult {
  if (value >= min) return { target, status: 'met', detail: shown };
  return { target, status: 'not met', detail: `${shown} — misses by ${format(min - value)}${unit} (${pct(1 - value / min)} short of ${format(min)}${unit})` };
}

/** A figure that must stay below `max`: met, or by how much it is over. */
function below(target: string, value: number, max: number, shown: string, unit: string, format = (n: number) => n.toFixed(1)): TargetResult {
  if (value < max) return { target, status: 'met', detail: shown };
  const relative = unit === ' points' ? '' : ` (${pct(value / max - 1)} over)`;
  return { target, status: 'not met', detail: `${shown} — ${format(value - max)}${unit} over ${format(max)}${unit.replace(' points', '%')}${relative}` };
}

/** A ratio target of issue 12: a row's req/s at least `min` times raw node:http's. */
interface RatioTarget {
  target: string;
  group: string;
  server: string;
  min: number;
}

/**
 * The ratio targets; their rows are measured in paired rounds with raw node:http (bench/load.ts
 * measurePaired). Every Restwell row runs at the server's default settings, the request log
 * included (a JSON line per request, to a file).
 */
export const RATIO_TARGETS: RatioTarget[] = [
  { target: 'GET /characters/{id} >= 0.75x raw node:http req/s (anonymous, at default settings: request log on)', group: GROUPS.getById.id, server: SERVERS.restwell, min: 0.75 },
  { target: 'GET /characters/{id} with an API key >= 0.70x raw node:http (at default settings)', group: GROUPS.getById.id, server: SERVERS.apiKey, min: 0.7 },
  { target: 'GET /characters/{id} with a JWT >= 0.70x raw node:http (at default settings)', group: GROUPS.getById.id, server: SERVERS.jwt, min: 0.7 },
  { target: 'durable POST /characters at 1k rows >= 0.30x raw node:http POST (at default settings)', group: GROUPS.post1k.id, server: SERVERS.restwell, min: 0.3 },
  { target: 'GET /characters/{id} on PostgreSQL >= 0.55x raw node:http', group: GROUPS.getById.id, server: SERVERS.postgres, min: 0.55 },
];

/** GET by id with the request log must keep this share of its req/s with logging off (LOG_LEVEL=warn). */
const LOG_COST_MIN = 0.95;

/** The request log's cost: each default row against its "logging off" twin, both measured in paired rounds. */
const LOG_COST_TARGETS = [
  { label: 'anonymous', group: GROUPS.getById.id, on: SERVERS.restwell, off: SERVERS.restwellQuiet },
  { label: 'API key', group: GROUPS.getById.id, on: SERVERS.apiKey, off: SERVERS.apiKeyQuiet },
  { label: 'JWT', group: GROUPS.getById.id, on: SERVERS.jwt, off: SERVERS.jwtQuiet },
] as const;

/**
 * "request log cost" = GET with the log / GET with LOG_LEVEL=warn: the median of the rounds' req/s
 * ratios when the two servers were measured against each other in alternating rounds (withLogCost,
 * bench/log-cost.ts: two windows seconds apart), else the ratio of the two rows' paired ratios to raw
 * node:http (two rows minutes apart, each with its own noise: a 5% difference is within it).
 */
function logCostTarget(rows: Row[], t: (typeof LOG_COST_TARGETS)[number]): TargetResult {
  const target = `request log cost, GET /characters/{id} (${t.label}): req/s with the request log >= ${LOG_COST_MIN.toFixed(2)}x with LOG_LEVEL=warn`;
  const on = find(rows, t.group, t.on);
  const off = find(rows, t.group, t.off);
  const u = usable([on, off]);
  if (!u.ok) return { target, status: u.status, detail: u.why };
  const direct = off!.figures?.logCostRatio;
  if (direct !== undefined) {
    const us = off!.figures!.logCostUs;
    const shown = `${direct.toFixed(3)} (median of ${off!.figures!.logCostRounds} rounds alternating the two servers${Number.isFinite(us) ? `; server CPU ${us >= 0 ? '+' : ''}${us.toFixed(1)} µs/request with the log` : ''})`;
    return direct >= LOG_COST_MIN ? { target, status: 'met', detail: shown } : { target, status: 'not met', detail: `${shown} — ${pct(1 - direct)} of the req/s goes to the log, the target allows ${pct(1 - LOG_COST_MIN)}` };
  }
  const a = on!.figures?.pairedRatio;
  const b = off!.figures?.pairedRatio;
  if (a === undefined || b === undefined || !(b > 0)) return { target, status: 'n/a', detail: 'no paired figures for both rows' };
  const shown = `${a.toFixed(2)}x / ${b.toFixed(2)}x raw node:http = ${(a / b).toFixed(3)}`;
  const cpu = Number.isFinite(on!.figures?.rowUs) && Number.isFinite(off!.figures?.rowUs) ? `; server CPU ${on!.figures!.rowUs.toFixed(0)} against ${off!.figures!.rowUs.toFixed(0)} µs/request` : '';
  return a / b >= LOG_COST_MIN ? { target, status: 'met', detail: shown + cpu } : { target, status: 'not met', detail: `${shown}${cpu} — ${pct(1 - a / b)} of the req/s goes to the log, the target allows ${pct(1 - LOG_COST_MIN)}` };
}

/** The ratio target a row is judged by, if any. */
export function ratioTargetOf(group: string, server: string): RatioTarget | undefined {
  return RATIO_TARGETS.find((t) => t.group === group && t.server === server);
}

const PAGE_P99_MS = 10;
const INGESTION_PER_SECOND = 10_000;

/**
 * Whether a row misses the issue-12 target that judges it (false when it meets it or none does): a
 * missed row is profiled right after it is measured (bench/explain.ts), while its server is at hand.
 */
export function rowMissesTarget(row: Row): boolean {
  const m = row.measurement;
  if (!m || isFlagged(row)) return false;
  const ratio = ratioTargetOf(row.group, row.server);
  if (ratio) return row.figures?.pairedRatio !== undefined && row.figures.pairedRatio < ratio.min;
  // The 1M-row search and page rows are judged on both engines.
  if (row.group === GROUPS.search1m.id || row.group === GROUPS.filtered1mUncached.id) return m.p99 >= PAGE_P99_MS;
  if (row.server !== SERVERS.restwell) return false;
  if (row.group === GROUPS.webhooks.id) return m.rps < INGESTION_PER_SECOND;
  return false;
}

/**
 * `row` req/s as a ratio to `base` req/s, at least `min`; a miss says the ratio and the req/s it would
 * take. `byPairs`: judged on the row's paired rounds with raw node:http when it has them.
 */
function ratioTarget(target: string, row: Row | undefined, ceiling: Row | undefined, min: number, byPairs = false): TargetResult {
  const paired = byPairs && row?.figures?.pairedRatio !== undefined;
  const u = usable(paired ? [row] : [row, ceiling]);
  if (!u.ok) return { target, status: u.status, detail: u.why };
  const rps = row!.measurement!.rps;
  const baseRps = paired ? row!.figures!.partnerRps : ceiling!.measurement!.rps;
  const ratio = paired ? row!.figures!.pairedRatio : rps / baseRps;
  const how = paired ? ` (median of ${row!.figures!.pairedRounds} paired rounds with raw node:http)` : '';
  const shown = `${fmt(rps)} / ${fmt(baseRps)} req/s = ${ratio.toFixed(2)}x${how}`;
  if (ratio >= min) return { target, status: 'met', detail: shown };
  const needed = min * baseRps;
  return { target, status: 'not met', detail: `${shown} — misses by ${(min - ratio).toFixed(min - ratio < 0.01 ? 3 : 2)}x: needs ${fmt(needed)} req/s, ${fmt(needed - rps)} more (+${pct(needed / rps - 1)})` };
}

/** Every target of issues 3-6 and 12 that this run's rows can judge; optional features' targets are n/a until built. */
export function judgeTargets(rows: Row[], connections: number): TargetResult[] {
  const rawGet = find(rows, GROUPS.getById.id, SERVERS.raw);
  const rawPost = find(rows, GROUPS.post1k.id, SERVERS.raw);
  const judged = (result: TargetResult, row: Row | undefined): TargetResult => (result.status === 'not met' && row ? { ...result, why: explainMiss(row) } : result);
  const results: TargetResult[] = RATIO_TARGETS.map((t) => {
    const row = find(rows, t.group, t.server);
    return judged(ratioTarget(t.target, row, t.group === GROUPS.post1k.id ? rawPost : rawGet, t.min, true), row);
  });
  results.push(...LOG_COST_TARGETS.map((t) => logCostTarget(rows, t)));

  // PostgreSQL's writes: POST against what the database commits alone (pgbench, measured right before
  // it in the same run), and PUT, PATCH and DELETE against that POST.
  const pgPost = find(rows, GROUPS.post1k.id, SERVERS.postgres);
  const pgbench = find(rows, GROUPS.pgInsert.id, SERVERS.pgbench);
  results.push(judged(ratioTarget('durable POST /characters on PostgreSQL >= 0.50x pgbench single-row INSERT commits/s (32 clients, same run)', pgPost, pgbench, 0.5), pgPost));
  for (const [method, group] of [['PUT', GROUPS.put], ['PATCH', GROUPS.patch], ['DELETE', GROUPS.delete]] as const) {
    const row = find(rows, group.id, SERVERS.postgres);
    results.push(judged(ratioTarget(`${method} /characters/{id} on PostgreSQL within 20% of its POST's req/s (>= 0.80x)`, row, pgPost, 0.8), row));
  }

  // Judged where every request runs the SQL: the fixed URL of the scenario is served from the page
  // cache after its first request, which says nothing about the index walk over 1M rows.
  const filtered = find(rows, GROUPS.filtered1mUncached.id, SERVERS.restwell);
  const pageTarget = `filtered sorted page of 20 over 1M rows: p99 < ${PAGE_P99_MS} ms at 32 connections (a new URL each request, so no page cache hit)`;
  const pageOk = usable([filtered]);
  if (!pageOk.ok) results.push({ target: pageTarget, status: pageOk.status, detail: pageOk.why });
  else if (connections !== 32) results.push({ target: pageTarget, status: 'n/a', detail: `run used ${connections} connections, not 32` });
  else {
    const { p50, p99 } = filtered!.measurement!;
    results.push(judged(below(pageTarget, p99, PAGE_P99_MS, `p99 ${p99.toFixed(1)} ms (p50 ${p50.toFixed(1)} ms)`, ' ms'), filtered));
  }

  // Search and the filtered page over 1M rows on both engines (bench/scenarios/search.ts), each request a new URL.
  for (const [group, server, what] of [
    [GROUPS.search1m.id, SERVERS.restwell, 'q= search over 1M rows on SQLite'],
    [GROUPS.search1m.id, SERVERS.postgres, 'q= search over 1M rows on PostgreSQL'],
    [GROUPS.filtered1mUncached.id, SERVERS.postgres, 'filtered sorted page of 20 over 1M rows on PostgreSQL'],
  ] as const) {
    const row = find(rows, group, server);
    const target = `${what}: p99 < ${PAGE_P99_MS} ms at 32 connections (a new URL each request)`;
    const ok = usable([row]);
    if (!ok.ok) results.push({ target, status: ok.status, detail: ok.why });
    else if (connections !== 32) results.push({ target, status: 'n/a', detail: `run used ${connections} connections, not 32` });
    else results.push(judged(below(target, row!.measurement!.p99, PAGE_P99_MS, `p99 ${row!.measurement!.p99.toFixed(1)} ms (p50 ${row!.measurement!.p50.toFixed(1)} ms)`, ' ms'), row));
  }

  const hooks = find(rows, GROUPS.webhooks.id, SERVERS.restwell);
  const hooksOk = usable([hooks]);
  const hooksTarget = 'verified Standard Webhooks ingestion >= 10k deliveries/s on SQLite';
  if (!hooksOk.ok) results.push({ target: hooksTarget, status: hooksOk.status, detail: hooksOk.why });
  else results.push(judged(atLeast(hooksTarget, hooks!.measurement!.rps, INGESTION_PER_SECOND, `${fmt(hooks!.measurement!.rps)} deliveries/s`, '/s'), hooks));

  const memory = find(rows, GROUPS.memory.id, SERVERS.restwell);
  const memoryOk = usable([memory]);
  const memoryTarget = 'memory: RSS after 1M requests within 10% of RSS after 10k';
  const f = memory?.figures;
  if (!memoryOk.ok) results.push({ target: memoryTarget, status: memoryOk.status, detail: memoryOk.why });
  else if (!f) results.push({ target: memoryTarget, status: 'n/a', detail: 'no RSS figures' });
  else {
    const growth = f.rssGrowth * 100;
    const shown = `${f.rss10kMiB.toFixed(1)} MiB after ${fmt(f.first)} requests, ${f.rssEndMiB.toFixed(1)} MiB after ${fmt(f.requests)} (${growth >= 0 ? '+' : ''}${growth.toFixed(1)}%)`;
    const judged = below(memoryTarget, Math.abs(growth), 10, shown, ' points');
    // A quick run stops at 100k: the figure says something, the target (1M) is not really judged.
    if (f.requests < 1_000_000) results.push({ ...judged, status: 'n/a', detail: `${judged.detail}; only ${fmt(f.requests)} requests, not 1M` });
    else results.push(judged);
  }

  // Issue 3's write targets, still judged.
  results.push(ratioTarget('POST /characters >= 10x json-server at 1k rows', find(rows, GROUPS.post1k.id, SERVERS.restwell), find(rows, GROUPS.post1k.id, SERVERS.jsonServer), 10));
  const posts = [GROUPS.post1k, GROUPS.post100k, GROUPS.post1m].map((g) => find(rows, g.id, SERVERS.restwell));
  const postsOk = usable(posts);
  const across = 'POST /characters within 20% across 1k / 100k / 1M rows';
  if (!postsOk.ok) results.push({ target: across, status: postsOk.status, detail: postsOk.why });
  else {
    const rps = posts.map((r) => r!.measurement!.rps);
    // Compared by their ratios to raw node:http in their own paired rounds when all have them: the
    // three rows run minutes apart, and the machine's speed moves more than that in between.
    const ratios = posts.map((r) => r!.figures?.pairedRatio);
    const byRatio = ratios.every((x) => x !== undefined);
    const values = byRatio ? (ratios as number[]) : rps;
    const spread = (1 - Math.min(...values) / Math.max(...values)) * 100;
    const shown = `${rps.map(fmt).join(' / ')} req/s${byRatio ? ` (${ratios.map((x) => `${x!.toFixed(2)}x`).join(' / ')} raw node:http in their paired rounds)` : ''}: slowest is ${spread.toFixed(0)}% below fastest`;
    results.push(below(across, spread, 20, shown, ' points', (n) => n.toFixed(0)));
  }

  // Outbound delivery: one row carries both figures (req/s = deliveries/s of a burst, p99 = idle event→delivery).
  const outbound = find(rows, GROUPS.outbound.id, SERVERS.restwell);
  const outboundOk = usable([outbound]);
  const rateTarget = 'outbound webhook deliveries >= 5,000/s to a local receiver on SQLite';
  const latencyTarget = 'outbound webhooks: p99 event→delivery < 50 ms at idle on SQLite';
  if (!outboundOk.ok) results.push({ target: rateTarget, status: outboundOk.status, detail: outboundOk.why }, { target: latencyTarget, status: outboundOk.status, detail: outboundOk.why });
  else {
    const m = outbound!.measurement!;
    // What the dispatcher can send is measured on a backlog: in a burst, deliveries keep pace with
    // the writes, and on 2 cores the writes themselves (sharing the CPU) stay under 5,000/s.
    const backlog = outbound!.figures?.backlogDeliveriesPerSecond;
    const burst = `in a write burst deliveries kept pace with the writes: ${fmt(m.rps)}/s, first write to last delivery (the row's note has the writes/s)`;
    results.push(
      backlog === undefined
        ? { target: rateTarget, status: 'n/a', detail: `no backlog figure (the replay did not run); ${burst}` }
        : atLeast(rateTarget, backlog, 5_000, `${fmt(backlog)} deliveries/s working off a backlog (median of 3); ${burst}`, '/s'),
      below(latencyTarget, m.p99, 50, `p50 ${m.p50.toFixed(1)} ms, p99 ${m.p99.toFixed(1)} ms`, ' ms'),
    );
  }
  results.push(...outboundPostgresTargets(rows));
  results.push(clusterTarget(rows));
  // Retention: the database stays within 20% of its size at the retention count, on each engine.
  for (const server of [SERVERS.restwell, SERVERS.postgres]) {
    const row = find(rows, GROUPS.retention.id, server);
    const target = `retention: database size after 1M event writes within 20% of the size at 100k (retention 100k), ${server}`;
    const ok = usable([row]);
    const f = row?.figures;
    if (!ok.ok) results.push({ target, status: ok.status, detail: ok.why });
    else if (!f) results.push({ target, status: 'n/a', detail: 'no size figures' });
    else {
      const mib = (b: number) => `${(b / 1024 ** 2).toFixed(1)} MiB`;
      const shown = `${mib(f.bytesAtRetain)} at ${fmt(f.retain)} events, ${mib(f.bytesAtEnd)} after ${fmt(f.writes)} writes (${f.growth >= 0 ? '+' : ''}${(f.growth * 100).toFixed(1)}%), ${fmt(f.kept)} kept`;
      const judged = below(target, Math.max(0, f.growth) * 100, 20, shown, ' points');
      results.push(f.writes < 1_000_000 ? { ...judged, detail: `${judged.detail}; quick run, scaled down to ${fmt(f.writes)} writes and a retention of ${fmt(f.retain)}` } : judged);
    }
  }
  results.push(...sseLoadTargets(rows));
  results.push(postFlatTarget(rows));
  return results;
}

/**
 * 1,000 open event streams under write load (bench/scenarios/sse-load.ts), per engine: the server's
 * RSS at the end of the writes within 10% of its RSS with the streams open and idle (after a warm-up),
 * and every stream received every event, none dropped. The writes' p99 has no target; it is shown
 * beside the same server's p99 with no stream open.
 */
function sseLoadTargets(rows: Row[]): TargetResult[] {
  return [SERVERS.restwell, SERVERS.postgres].map((server) => {
    const row = rows.find((r) => r.group === GROUPS.sseLoad.id && r.server.startsWith(`${server} + `));
    const target = `1,000 SSE clients under write load (${server}): RSS at the end of the writes within 10% of RSS with the clients idle, and no event lost or client dropped`;
    const f = row?.figures;
    if (!row?.measurement || !f) return { target, status: 'n/a', detail: row ? `${row.server}: ${row.note}` : 'no row' };
    const m = row.measurement;
    const growth = f.rssGrowth * 100;
    const shown =
      `${f.rssIdleMiB.toFixed(1)} MiB idle, ${f.rssEndMiB.toFixed(1)} MiB after ${fmt(m.requests)} writes (${growth >= 0 ? '+' : ''}${growth.toFixed(1)}%, peak ${f.rssPeakMiB.toFixed(1)} MiB); ` +
      `${fmt(f.events)} events to ${fmt(f.clients)} clients: ${f.lost} clients missed events, ${f.dropped} dropped; ` +
      `writes ${fmt(m.rps)} req/s, p99 ${m.p99.toFixed(1)} ms (${fmt(f.rpsAlone)} req/s, p99 ${f.p99AloneMs.toFixed(1)} ms with no client)`;
    if (f.lost || f.dropped) return { target, status: 'not met', detail: `${shown} — events lost` };
    if (m.non2xx || m.errors || !m.requests) return { target, status: 'not met', detail: `${shown} — some writes failed; the figures do not count` };
    return below(target, Math.abs(growth), 10, shown, ' points');
  });
}

/**
 * Durable POST on SQLite at 1M existing rows keeps at least 0.80x of its pace at 1k. Compared by the
 * rows' ratios to raw node:http in their own paired rounds when both have them (the rows run minutes
 * apart and the machine's speed moves in between), otherwise by req/s.
 */
function postFlatTarget(rows: Row[]): TargetResult {
  const target = 'durable POST /characters at 1M rows >= 0.80x its req/s at 1k rows';
  const [small, large] = [GROUPS.post1k, GROUPS.post1m].map((g) => find(rows, g.id, SERVERS.restwell));
  const ok = usable([small, large]);
  if (!ok.ok) return { target, status: ok.status, detail: ok.why };
  const [a, b] = [small!, large!];
  const byRatio = a.figures?.pairedRatio !== undefined && b.figures?.pairedRatio !== undefined;
  const [at1k, at1m] = byRatio ? [a.figures!.pairedRatio, b.figures!.pairedRatio] : [a.measurement!.rps, b.measurement!.rps];
  const ratio = at1m / at1k;
  const shown = byRatio
    ? `${at1m.toFixed(2)}x / ${at1k.toFixed(2)}x raw node:http in their paired rounds (${fmt(b.measurement!.rps)} / ${fmt(a.measurement!.rps)} req/s) = ${ratio.toFixed(2)}x`
    : `${fmt(at1m)} / ${fmt(at1k)} req/s = ${ratio.toFixed(2)}x`;
  if (ratio >= 0.8) return { target, status: 'met', detail: shown };
  return { target, status: 'not met', detail: `${shown} — misses by ${(0.8 - ratio).toFixed(2)}x` };
}

/** Deliveries per second a burst's deliveries must reach, as a part of the writes' own pace in that burst, to count as keeping pace. */
const KEEP_PACE = 0.9;

/**
 * Outbound delivery on PostgreSQL: working off a backlog at 5,000/s (the dispatcher's capacity), and
 * keeping pace with a write burst: the burst's deliveries per second (first write → last delivery)
 * at least 90% of its writes per second (first write → last answer), i.e. no backlog builds up
 * behind the writes. The writes' own pace is not the dispatcher's to set (the row's note has it).
 */
function outboundPostgresTargets(rows: Row[]): TargetResult[] {
  const row = find(rows, GROUPS.outbound.id, SERVERS.postgres);
  const ok = usable([row]);
  const rateTarget = 'outbound webhook deliveries >= 5,000/s to a local receiver on PostgreSQL (working off a backlog)';
  const paceTarget = `outbound webhooks on PostgreSQL keep pace with a write burst (deliveries/s >= ${KEEP_PACE * 100}% of the burst's writes/s)`;
  if (!ok.ok) return [{ target: rateTarget, status: ok.status, detail: ok.why }, { target: paceTarget, status: ok.status, detail: ok.why }];
  const f = row!.figures ?? {};
  const backlog = f.backlogDeliveriesPerSecond;
  const rate: TargetResult =
    backlog === undefined ? { target: rateTarget, status: 'n/a', detail: 'no backlog figure (the replay did not run)' } : atLeast(rateTarget, backlog, 5_000, `${fmt(backlog)} deliveries/s working off a backlog (median of 3)`, '/s');
  const { burstDeliveriesPerSecond: delivered, burstWritesPerSecond: written } = f;
  const pace: TargetResult =
    delivered === undefined || written === undefined || !(written > 0)
      ? { target: paceTarget, status: 'n/a', detail: 'no burst figures' }
      : atLeast(paceTarget, delivered / written, KEEP_PACE, `${fmt(delivered)} deliveries/s while the writes reached ${fmt(written)}/s: ${pct(delivered / written)} (medians of 3)`, '', pct);
  return [rate, pace];
}

/** The cluster soak (bench/scenarios/cluster.ts): nodes killed and restarted behind a balancer, and nothing acknowledged goes missing. */
function clusterTarget(rows: Row[]): TargetResult {
  const row = find(rows, GROUPS.cluster.id, SERVERS.postgres);
  const target = 'cluster of 3 nodes behind HAProxy, nodes killed and restarted: 0 acknowledged writes lost, 0 Idempotency-Key duplicates, every event delivered, SSE resumes miss nothing';
  const f = row?.figures;
  if (!row?.measurement || !f) return { target, status: 'n/a', detail: row ? `${row.server}: ${row.note}` : 'no cluster row' };
  const shown = `${fmt(f.writes)} writes, ${fmt(f.kills)} kills: lost ${f.lost}, duplicates ${f.duplicates}, unread ${f.not_found_reads}, undelivered ${f.undelivered} of ${fmt(f.events)} events, stream events missed ${f.missed}`;
  return { target, status: isFlagged(row) ? 'not met' : 'met', detail: shown };
}
