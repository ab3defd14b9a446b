// `npm run bench`: raw node:http (the ceiling), json-server 0.17.4 and Restwell, each in its own child
// process, under load from wrk (a child process per run, Lua scripts in bench/wrk/; installed with
// apt-get when missing). Writes bench/results.md and results.svg.
// See bench/README.md for what each row measures and how long it takes.
import { execSync, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { chartSvg } from './chart.js';
import { notRun, reason } from './context.js';
import type { BenchContext } from './settings.js';
import type { Row } from './load.js';
import { installCleanup, killAll } from './processes.js';
import { GROUPS, SERVERS } from './groups.js';
import { markdownTable, targetLines, textTable } from './report.js';
import { apiKeyRows } from './scenarios/api-key.js';
import { batchRows } from './scenarios/batch.js';
import { ceilingRows } from './scenarios/ceiling.js';
import { clusterRows } from './scenarios/cluster.js';
import { jsonServerRows } from './scenarios/json-server.js';
import { jsonServerProfileRows } from './scenarios/json-server-profile.js';
import { jwtRows } from './scenarios/jwt.js';
import { memoryRows } from './scenarios/memory.js';
import { outboundRows } from './scenarios/outbound.js';
import { postgresRows } from './scenarios/postgres.js';
import { rateLimitRows } from './scenarios/rate-limit.js';
import { restwellRows } from './scenarios/restwell.js';
import { retentionRows } from './scenarios/retention.js';
import { sseFanoutRows } from './scenarios/sse-fanout.js';
import { sseLoadRows } from './scenarios/sse-load.js';
import { webhookRows } from './scenarios/webhooks.js';
import { workersRows } from './scenarios/workers.js';
import { clearMissedProfiles } from './explain.js';
import { buildRestwell, ROOT, stopPartner } from './servers.js';
import { searchRows } from './scenarios/search.js';
import { benchSettings } from './settings.js';
import { judgeTargets } from './targets.js';
import { ensureWrk } from './wrk.js';

/** A part of the run; a failing section becomes a flagged line in the table instead of ending the run. */
interface Section {
  /** For `BENCH_ONLY=key,key` (development: run some sections only). */
  key: string;
  name: string;
  optional: boolean;
  run: (ctx: BenchContext) => Promise<Row[]>;
  /** Whether its load comes from wrk (sse and outbound drive fixed-count bursts of their own). */
  wrk: boolean;
}

const SECTIONS: Section[] = [
  { key: 'ceiling', name: 'raw node:http', optional: false, run: ceilingRows, wrk: true },
  { key: 'json-server', name: 'json-server', optional: false, run: jsonServerRows, wrk: true },
  { key: 'restwell', name: 'Restwell on SQLite', optional: false, run: restwellRows, wrk: true },
  { key: 'jsonserver-profile', name: 'json-server profile against json-server and the HAL API', optional: true, run: jsonServerProfileRows, wrk: true },
  { key: 'workers', name: 'Restwell --workers 2', optional: true, run: workersRows, wrk: true },
  { key: 'api-key', name: 'Restwell with an API key', optional: true, run: apiKeyRows, wrk: true },
  { key: 'jwt', name: 'Restwell with a JWT', optional: true, run: jwtRows, wrk: true },
  { key: 'postgres', name: 'Restwell on PostgreSQL', optional: true, run: postgresRows, wrk: true },
  { key: 'batch', name: 'Batches and bulk create against single POSTs (SQLite, PostgreSQL)', optional: true, run: batchRows, wrk: true },
  { key: 'rate-limit', name: 'Rate limits shared by the nodes (PostgreSQL, Redis)', optional: true, run: rateLimitRows, wrk: true },
  { key: 'webhooks', name: 'Standard Webhooks ingestion', optional: true, run: webhookRows, wrk: true },
  { key: 'memory', name: 'Memory after 10k / 1M requests', optional: false, run: memoryRows, wrk: true },
  { key: 'sse', name: 'Event stream fan-out', optional: true, run: sseFanoutRows, wrk: false },
  { key: 'sse-load', name: '1,000 event streams under write load', optional: true, run: sseLoadRows, wrk: true },
  { key: 'outbound', name: 'Outbound webhook delivery', optional: true, run: outboundRows, wrk: false },
  { key: 'cluster', name: 'Cluster soak behind HAProxy', optional: true, run: clusterRows, wrk: false },
  { key: 'retention', name: 'Retention: bounded database size', optional: true, run: retentionRows, wrk: false },
  { key: 'search', name: 'Search and the filtered page over 1M rows (SQLite, PostgreSQL)', optional: true, run: searchRows, wrk: true },
];

function command(quick: boolean): string {
  const env = [quick ? 'BENCH_QUICK=1' : '', ...['BENCH_CONNECTIONS', 'BENCH_ONLY', 'BENCH_SKIP_BUILD', 'BENCH_WRK_THREADS'].map((k) => (process.env[k] ? `${k}=${process.env[k]}` : ''))]
    .filter(Boolean)
    .join(' ');
  const cmd = process.env.npm_lifecycle_event === 'bench' ? 'npm run bench' : `node --import tsx bench/run.ts`;
  return env ? `${env} ${cmd}` : cmd;
}

function nproc(): string {
  try {
    return execSync('nproc').toString().trim();
  } catch {
    return String(cpus().length);
  }
}

async function main(): Promise<number> {
  const settings = benchSettings();
  const startedAt = new Date();
  const loadBefore = loadavg()[0];
  const work = join(ROOT, 'bench', '.work', `run-${process.pid}`);
  installCleanup(() => rmSync(work, { recursive: true, force: true }));
  const t0 = performance.now();
  const progress = (line: string) => process.stderr.write(`[${((performance.now() - t0) / 1000).toFixed(0).padStart(3)} s] ${line}\n`);

  if (process.env.BENCH_SKIP_BUILD === '1') progress('BENCH_SKIP_BUILD=1: measuring dist/ as it is');
  else {
    progress('npm run build (the bench measures the built server)');
    await buildRestwell();
  }
  mkdirSync(work, { recursive: true });
  clearMissedProfiles();
  const ctx: BenchContext = { settings, work, progress };
  const rows: Row[] = [];
  let failed = false;
  const only = process.env.BENCH_ONLY?.split(',').map((k) => k.trim());
  const sections = SECTIONS.filter((s) => !only || only.includes(s.key));
  let wrkVersion = 'not available';
  if (sections.some((s) => s.wrk)) {
    try {
      wrkVersion = ensureWrk(progress);
      progress(`load generator: wrk ${wrkVersion}, one child process per run, ${settings.connections} connections`);
    } catch {
      // ensureWrk printed why; every wrk row fails with that message and the run goes on with the others.
    }
  }
  try {
    for (const section of sections) {
      // Flush what the previous section wrote (json-server rewrites a 10 MB file per write), so its
      // dirty pages do not slow this section's fsyncs.
      spawnSync('sync');
      try {
        rows.push(...(await section.run(ctx)));
      } catch (err) {
        failed ||= !section.optional;
        progress(`${section.name} FAILED: ${(err as Error).stack ?? err}`);
        rows.push({ ...notRun('failed', `${section.name}`, section.name, ''), warning: `FAILED: ${reason(err)}` });
      }
    }
  } finally {
    await stopPartner();
    killAll();
    if (process.env.BENCH_KEEP !== '1') rmSync(work, { recursive: true, force: true });
  }

  const elapsed = (performance.now() - t0) / 1000;
  const loadAfter = loadavg()[0];
  const cores = Number(nproc()) || cpus().length;
  const caveats = [
    settings.quick ? 'Quick smoke run: windows too short for stable figures; the targets below are indicative only.' : '',
    // Only the load before the run says whether other work was going on: at the end it includes the bench itself.
    loadBefore > cores * 0.5
      ? `The machine was busy before the run started (load average ${loadBefore.toFixed(1)} on ${cores} cores): other work shared the CPU with the servers and the load generator, so these figures are not trustworthy; rerun on an idle machine.`
      : '',
    // About 30 minutes on an idle 2-core machine (bench/README.md, Timing), profiles of missed targets included.
    elapsed > 2400 ? `The run took ${elapsed.toFixed(0)} s, over the 40-minute budget: the machine was slow or busy.` : '',
  ].filter(Boolean);
  const targets = judgeTargets(rows, settings.connections);
  const label = settings.quick ? 'QUICK SMOKE RUN (BENCH_QUICK=1: 1 s warm-up + 2 s per row) — not representative figures' : 'Full run';
  const machine = `nproc ${nproc()} (${cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}, ${process.platform}/${process.arch}`;
  const rawGet = rows.find((r) => r.group === GROUPS.getById.id && r.server === SERVERS.raw)?.measurement;
  const rawPost = rows.find((r) => r.group === GROUPS.post1k.id && r.server === SERVERS.raw)?.measurement;
  const fmt = (n: number | undefined) => (n === undefined ? 'not measured' : `${Math.round(n).toLocaleString('en')} req/s`);
  const generator =
    `wrk ${wrkVersion} (\`wrk -t${settings.wrkThreads} -c${settings.connections} --latency\`, a child process per warm-up and window, Lua scripts in bench/wrk/); ` +
    `its ceiling — raw node:http under it — this run: GET ${fmt(rawGet?.rps)}, POST ${fmt(rawPost?.rps)}`;
  const timing = `${settings.connections} connections for every row; warm-up ${settings.warmup} s (reads) / ${settings.writeWarmup} s (writes) excluded, then ${settings.duration} s measured (json-server at 100k rows: ${settings.slowDuration} s)`;
  const md = [
    '# Restwell benchmark results',
    '',
    `**${label}.**`,
    '',
    `- Command: \`${command(settings.quick)}\``,
    `- Date: ${startedAt.toISOString()}; total time ${elapsed.toFixed(0)} s`,
    `- Machine: ${machine}; 1-minute load average ${loadBefore.toFixed(2)} at start, ${loadAfter.toFixed(2)} at end (anything else using the CPU lowers and scatters every figure)`,
    `- Load generator: ${generator}. The SSE fan-out and outbound rows drive their own fixed-count bursts (raw sockets; autocannon), far below that ceiling (see bench/README.md).`,
    `- Timing: ${timing}; every server in its own child process on 127.0.0.1`,
    `- Ratios: req/s divided by raw node:http (fixed body; GET rows by the GET ceiling, write rows by the POST ceiling) and by json-server in the same scenario. A row a ratio target judges is instead measured in ${settings.pairedRounds} rounds of two back-to-back ${settings.pairedSeconds} s windows, raw node:http's and its own, and its ratio is the median of the rounds' ratios (its note lists them); its req/s and latencies are the medians of its windows.`,
    `- A row that misses its target is then run ${settings.profileSeconds} s more under \`node --cpu-prof\`${settings.profileMisses ? '' : ' (not in this run: BENCH_PROFILE=0)'}: the "why" lines under the target summarise that profile, and its flame graph is in bench/profile/missed/.`,
    '- A row marked ⚠ had non-2xx responses, connection errors or a wrong first response: its figures are shown but count for no target.',
    '',
    markdownTable(rows),
    '',
    '## Targets',
    '',
    ...caveats.map((c) => `> ${c}`),
    ...(caveats.length ? [''] : []),
    ...targetLines(targets),
    '',
    '![req/s per scenario and server](results.svg)',
    '',
  ].join('\n');
  writeFileSync(join(ROOT, 'bench', 'results.md'), md);
  writeFileSync(join(ROOT, 'bench', 'results.svg'), chartSvg(rows, `Restwell bench — ${settings.quick ? 'QUICK SMOKE RUN, ' : ''}req/s (${machine.split(' (')[0]}, ${startedAt.toISOString().slice(0, 10)})`));

  process.stdout.write(`\n${label}\n${machine}; load average ${loadBefore.toFixed(2)} at start, ${loadAfter.toFixed(2)} at end\nLoad generator: ${generator}\n${timing}\n\n${textTable(rows)}\n\nTargets:\n${caveats.map((c) => `${c}\n`).join('')}${targetLines(targets).join('\n').replace(/\*\*/g, '')}\n\n`);
  process.stdout.write(`Wrote bench/results.md and bench/results.svg in ${elapsed.toFixed(0)} s.\n`);
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`bench: ${(err as Error).stack ?? err}\n`);
    killAll();
    process.exit(1);
  },
);
