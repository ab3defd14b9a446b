import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { notRun } from '../context.js';
import { GROUPS, SERVERS } from '../groups.js';
import type { Row } from '../load.js';
import { ROOT } from '../servers.js';
import type { BenchContext } from '../settings.js';
import { BASE_URL, reachable } from './postgres.js';

/** The soak's size: the full run's, and a smaller one for a quick run. */
const PLAN = { full: { writes: 5000, kills: 10 }, quick: { writes: 1000, kills: 3 } };

/** The counts the soak must end with, and the figures the row shows beside them. */
const MUST_BE_ZERO = ['lost', 'duplicates', 'not_found_reads', 'missed'] as const;

/**
 * The long run of the cluster test (test/cluster/cluster.test.ts with CLUSTER_SOAK=1): three nodes on
 * one PostgreSQL behind HAProxy, writes, reads, SSE streams and outbound deliveries through the
 * balancer while nodes are killed and restarted. The row carries the soak's counts; its target is
 * that nothing acknowledged is lost, duplicated, unread, undelivered or missed by a stream.
 */
export async function clusterRows(ctx: BenchContext): Promise<Row[]> {
  const na = (why: string) => [notRun(GROUPS.cluster.id, GROUPS.cluster.label, SERVERS.postgres, why)];
  const unreachable = await reachable();
  if (unreachable) return na(`n/a (PostgreSQL not reachable at ${BASE_URL}: ${unreachable})`);
  const plan = ctx.settings.quick ? PLAN.quick : PLAN.full;
  ctx.progress(`cluster soak: ${plan.writes} writes, ${plan.kills} kills of 3 nodes behind HAProxy`);
  const started = performance.now();
  const { code, output } = await runSoak(plan);
  const seconds = (performance.now() - started) / 1000;
  const line = /^cluster soak: (.*)$/m.exec(output)?.[1];
  if (!line) {
    const skipped = /# SKIP (.*)/.exec(output)?.[1];
    return na(skipped ? `n/a (${skipped.trim()})` : `n/a (the soak failed, exit ${code}: ${failureOf(output)})`);
  }
  const figures = Object.fromEntries([...line.matchAll(/(\w+)=(\d+(?:\.\d+)?)/g)].map(([, k, v]) => [k, Number(v)]));
  figures.undelivered = Math.max(0, (figures.events ?? 0) - (figures.delivered ?? 0));
  const failed = code !== 0 || MUST_BE_ZERO.some((k) => figures[k] !== 0) || figures.undelivered > 0;
  return [
    {
      group: GROUPS.cluster.id,
      scenario: GROUPS.cluster.label,
      server: SERVERS.postgres,
      measurement: {
        rps: (figures.writes ?? 0) / seconds,
        p50: 0,
        p99: 0,
        requests: figures.writes ?? 0,
        non2xx: 0,
        errors: failed ? 1 : 0,
        statusCodes: {},
        seconds,
        connections: 0,
      },
      figures,
      note: `req/s = acknowledged writes per second over the whole soak (kills included); ${line}`,
      ...(code !== 0 ? { warning: `the soak's assertions failed (exit ${code})` } : {}),
    },
  ];
}

/** The soak's failed assertion, as its TAP output gives it (its first lines), else its last lines. */
function failureOf(output: string): string {
  const lines = output.split('\n');
  const at = lines.findIndex((l) => /^\s*error: /.test(l));
  if (at < 0) return output.trim().split('\n').slice(-8).join(' | ');
  const first = lines[at]!.replace(/^\s*error: (\|-)?/, '').trim();
  const next = lines.slice(at + 1).map((l) => l.trim()).filter((l) => l && !l.startsWith('---'));
  return [first, ...next].filter(Boolean).slice(0, 3).join(' | ').slice(0, 600);
}

function runSoak(plan: { writes: number; kills: number }): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    // Run directly (not under --test): the file's tests run in this child and print the soak's line.
    const child = spawn(process.execPath, ['--import', 'tsx', join('test', 'cluster', 'cluster.test.ts')], {
      cwd: ROOT,
      env: { ...process.env, CLUSTER_SOAK: '1', CLUSTER_WRITES: String(plan.writes), CLUSTER_KILLS: String(plan.kills), TEST_DATABASE_URL: BASE_URL },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => resolve({ code, output }));
  });
}
