// Why a row missed its target: its server is started once more under `node --cpu-prof` on the same data
// and measured under the same load, and the profile says where the busy time went (phases of a
// request, hottest functions, a flame graph in bench/profile/missed/), next to the CPU every process
// on the machine spent per request over that window (the database server's share, say).
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { breakdown, flameGraphSvg, keepFrom, readProfile, type Share } from './cpu-profile.js';
import type { BenchContext } from './settings.js';
import { GROUPS, SERVERS } from './groups.js';
import { cpuUsPerRequest, measure, type MissProfile, type RequestPlan, type Row } from './load.js';
import type { ServerProcess } from './processes.js';
import { ROOT } from './servers.js';
import { processStat } from './wrk.js';

/** Where the flame graphs of missed targets go; emptied at the start of every run (bench/run.ts). */
const MISSED_DIR = join(ROOT, 'bench', 'profile', 'missed');

/** Starts the row's server again with extra node flags (on the same data, same config). */
export type Restart = (nodeArgs: string[]) => Promise<ServerProcess>;

/** CPU seconds (user + system) of every process now, by pid, with its command name. */
function processCpu(): Map<number, { name: string; seconds: number }> {
  const out = new Map<number, { name: string; seconds: number }>();
  for (const entry of readdirSync('/proc')) {
    // A process that ended between the listing and the read has no stat.
    const stat = /^\d+$/.test(entry) ? processStat(Number(entry)) : undefined;
    if (stat) out.set(Number(entry), stat);
  }
  return out;
}

/** CPU each command name used between two snapshots, per request (µs), leaving out the given pids. */
function othersPerRequest(before: Map<number, { name: string; seconds: number }>, after: Map<number, { name: string; seconds: number }>, requests: number, exclude: Set<number>): Array<{ name: string; us: number }> {
  const byName = new Map<string, number>();
  for (const [pid, a] of after) {
    if (exclude.has(pid)) continue;
    const used = a.seconds - (before.get(pid)?.seconds ?? 0);
    if (used > 0) byName.set(a.name, (byName.get(a.name) ?? 0) + used);
  }
  return [...byName]
    .map(([name, seconds]) => ({ name, us: (seconds * 1e6) / Math.max(requests, 1) }))
    .filter((o) => o.us >= 1)
    .sort((a, b) => b.us - a.us)
    .slice(0, 4);
}

/**
 * Profiles a row that missed its target: `restart` runs its server under `node --cpu-prof`, which gets
 * the row's warm-up and then `settings.profileSeconds` of the same load; the samples of that window
 * are summarised and drawn (bench/profile/missed/<group>-<server>.svg). Failures are reported, not thrown.
 */
export async function profileMiss(ctx: BenchContext, row: Row, plan: RequestPlan, restart: Restart): Promise<MissProfile> {
  const dir = join(ctx.work, 'profiles');
  const name = `${row.group}-${row.server.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '').toLowerCase()}`;
  mkdirSync(dir, { recursive: true });
  ctx.progress(`${row.server.padEnd(26)} missed its target: ${ctx.settings.profileSeconds} s more under node --cpu-prof`);
  try {
    const server = await restart(['--cpu-prof', `--cpu-prof-dir=${dir}`, `--cpu-prof-name=${name}.cpuprofile`]);
    let measured;
    let before;
    let after;
    let tail: number;
    try {
      // The warm-up alone first, so the CPU snapshots bracket exactly the profiled window.
      await measure(server.url, plan, ctx.settings, { duration: 1 });
      before = processCpu();
      measured = await measure(server.url, plan, ctx.settings, { warmup: 0, duration: ctx.settings.profileSeconds }, server.child.pid);
      after = processCpu();
    } finally {
      const stopping = performance.now();
      await server.stop();
      tail = (performance.now() - stopping) / 1000;
    }
    const profile = readProfile(join(dir, `${name}.cpuprofile`));
    // The profile ends when the server exits: keep the window, and the few idle ms of stopping.
    keepFrom(profile, profile.endTime - (measured.seconds + tail + 0.2) * 1e6);
    mkdirSync(MISSED_DIR, { recursive: true });
    const svgFile = join(MISSED_DIR, `${name}.svg`);
    writeFileSync(svgFile, flameGraphSvg(profile, `${row.server} — ${row.scenario} (${ctx.settings.profileSeconds} s under wrk, node --cpu-prof)`));
    const b = breakdown(profile, 5);
    const exclude = new Set([process.pid, server.child.pid!]);
    return {
      svg: relative(ROOT, svgFile),
      seconds: measured.seconds,
      rps: measured.rps,
      serverUs: cpuUsPerRequest(measured.cpu?.server ?? 0, measured.seconds, measured.requests),
      phases: b.phases,
      hottest: b.selfTime,
      others: othersPerRequest(before, after, measured.requests, exclude),
    };
  } catch (err) {
    return { error: String((err as Error).message ?? err).split('\n')[0] };
  }
}

/** Empties the folder of flame graphs, so what it holds is always this run's misses. */
export function clearMissedProfiles(): void {
  rmSync(MISSED_DIR, { recursive: true, force: true });
}

const share = (s: Share) => `${s.name} ${(s.share * 100).toFixed(0)}%`;

/**
 * What was found when each target was last worked on, with the profile that showed it (bench/README.md
 * "Where the time goes" has the figures): printed under a miss after this run's own profile.
 */
const KNOWN_CAUSES: Record<string, string> = {
  [`${GROUPS.getById.id}|${SERVERS.restwell}`]:
    "node:http alone costs ~16-31 µs of CPU per GET (the machine's load moves it) and bare Fastify 1-10 µs more (bench/profile/bare-fastify.mjs); the record, its JSON and ETag come from the per-process cache, checked against one pread of the WAL-index header per turn of the event loop; what is left is Restwell's own steps (the onRequest hooks, nosniff and the guard, ~0.16 µs together in a loop for an anonymous read; negotiation, conditional and Vary headers), Fastify's per-request child logger (~0.24 µs in a loop), and the request log line, ~1 µs in a loop (the template ~0.3 µs; encoding it into the 64 KiB batch and pino's asynchronous destination writing that the rest; its cost in the server is judged against the row's \"logging off\" twin, the two servers alternating: bench/log-cost.ts). Identical server processes used to differ by 15-20% (one in three built node's tick objects in V8's runtime); serve now settles them before listening (bench/profile/process-spread.mjs measures the spread). Most busy samples are the response's write syscall, which raw node:http pays too (V8's sampler over-counts syscalls).",
  [`${GROUPS.getById.id}|${SERVERS.apiKey}`]: 'the anonymous GET path plus a token-cache lookup of the Authorization header (~1-5 µs); the key itself is verified once per cache lifetime (auth.cacheTtl).',
  [`${GROUPS.getById.id}|${SERVERS.jwt}`]: 'the anonymous GET path plus a token-cache lookup of the Authorization header (~1-2 µs: keyed by its last 64 characters, a kilobyte-long header hashed whole cost ~3 µs more); the signature is verified once per cache lifetime (auth.cacheTtl).',
  [`${GROUPS.post1k.id}|${SERVERS.restwell}`]:
    "a durable write is SQLite's work (INSERT … RETURNING of the record and of its event, BEGIN/COMMIT writing the WAL pages) and an fsync started off the event loop before the 201, ~40-45% of the busy samples; raw node:http answers a fixed body without reading the request. The group commit shares one transaction and one fsync among the writes of a turn of the event loop. Of SQLite's work, ~10 µs a write is the search index of the two string fields (one pending row per write, folded in SQL; every 256 writes moved into FTS5 as 3-gram and 4-gram tokens, which is most of it), ~13 µs the rest (bench/README.md, Fourth round, cheaper durable POST).",
  [`${GROUPS.getById.id}|${SERVERS.postgres}`]:
    'reads by id that arrive together go out as one prepared statement per resource (src/store/postgres/postgres-by-id.ts); the PostgreSQL backends run on the same 2 cores as Node and wrk (their CPU is in the "other processes" line above).',
  [`${GROUPS.filtered1mUncached.id}|${SERVERS.restwell}`]:
    "without the page cache a page is SQLite's walk of the name index from 'C' and its read of 21 rows scattered over a 1M-row table (~115 of ~170 µs of server CPU in an experiment that skipped only that call), then ~20 µs to build the page's HAL and JSON and ~10 µs its links; the SQL text is built once per query shape. A URL asked for once is no longer kept in the page cache (kept from its second read): keeping each one had promoted ~20 KB a request into the old generation, a full collection every second (99 against 155 µs of server CPU per request, paired). p99 follows the CPU per request: 32 connections queue on one core.",
  [`${GROUPS.search1m.id}|${SERVERS.restwell}`]:
    "each search field's FTS5 index holds the folded text's 3-grams and 4-grams: a six-digit term ANDs two 4-gram lists per field (~400 rows each, where a digit trigram lists ~4,000), then the candidates' rows are tested exactly; the statement is ~55 µs hot and 105-135 µs over 20,000 different terms (their index pages miss SQLite's 2 MB page cache), the server ~190-245 µs per request in all. p99 follows the CPU per request: 32 connections queue on one core (bench/README.md, SQLite search).",
  [`${GROUPS.search1m.id}|${SERVERS.postgres}`]:
    "the database's work (~70% of the machine's samples under this load, Node ~20%): one BitmapOr of the two fields' pg_trgm GIN indexes, planned with each term (a prepared statement's generic plan is no better and saves only the parse). A six-digit term is 4 trigrams per field, each in ~4,000 of the 1M rows, so each request decodes and intersects ~32,000 row pointers (the GIN scans are ~46% of all samples); ~0.5-0.7 ms of backend CPU per request, which 32 connections on 2 shared cores cannot fit under 10 ms at p99 (bench/README.md, PostgreSQL search).",
  [`${GROUPS.filtered1mUncached.id}|${SERVERS.postgres}`]:
    "a page is one index range on the unique name btree (the LIKE prefix becomes name >= 'C' AND name < 'D' under collation C), 22 rows, ~0.04 ms of execution; planning it is a third of the backends' CPU, and a prepared statement would not save it (its generic plan cannot turn the parameter into a range, so PostgreSQL keeps planning each request); Node pays ~110 µs of CPU per round trip (socket syscalls) before building the page (bench/README.md, PostgreSQL search).",
  [`${GROUPS.webhooks.id}|${SERVERS.restwell}`]:
    "each delivery is verified (an HMAC-SHA256 of the body, ~11% of the busy samples) and stored durably before the 2xx (INSERT into the inbox with its unique and due indexes, BEGIN/COMMIT, fsync: ~38%); writes that arrive during an fsync wait for it, so a slow disk (fsyncs of 3-19 ms on a busy machine against 0.25 ms idle) caps the deliveries per second.",
};

/** The lines printed under a missed target: this run's profile of the row, then what is known of it. */
export function explainMiss(row: Row): string[] {
  const lines: string[] = [];
  const p = row.profile;
  if (p && 'error' in p) lines.push(`the profile could not be taken: ${p.error}`);
  else if (p) {
    const partnerUs = row.figures?.partnerUs;
    const cpu = `server CPU ${p.serverUs.toFixed(0)} µs/request under the profiler` + (partnerUs ? ` (raw node:http: ${partnerUs.toFixed(0)} µs in the paired rounds)` : '');
    lines.push(`a profile of the server under the same load: ${cpu}; its busy samples by phase: ${p.phases.filter((s) => s.share >= 0.02).map(share).join(', ')}`);
    lines.push(`hottest functions (self time): ${p.hottest.map(share).join(', ')}; flame graph: ${p.svg}`);
    if (p.others.length) lines.push(`other processes over the same window, CPU µs/request: ${p.others.map((o) => `${o.name} ${o.us.toFixed(0)}`).join(', ')}`);
  }
  const known = KNOWN_CAUSES[`${row.group}|${row.server}`];
  if (known) lines.push(`known: ${known}`);
  return lines;
}
