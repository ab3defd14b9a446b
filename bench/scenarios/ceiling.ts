import { runRow } from '../context.js';
import type { BenchContext } from '../settings.js';
import { GROUPS, SERVERS } from '../groups.js';
import type { Row } from '../load.js';
import { createCharacter, getById } from '../requests.js';
import type { ServerProcess } from '../processes.js';
import { startRawHttp, withServer } from '../servers.js';
import { ceilings, runTag, runWrk } from '../wrk.js';

const fmt = (n: number) => Math.round(n).toLocaleString('en');

/**
 * Raw node:http with a fixed body, under the GET-by-id and the POST load: the ceilings of every ratio.
 * First (unless BENCH_WRK_THREADS fixes it) a probe of wrk -t1 against -t2 on the GET load, alternating,
 * twice each: the run uses 2 threads only when that reaches a ceiling at least 5% higher. The rows'
 * figures are then remembered as this run's ceilings (they bound how many signed webhooks to prepare).
 */
export async function ceilingRows(ctx: BenchContext): Promise<Row[]> {
  return withServer(startRawHttp(), async (raw) => {
    const probe = ctx.settings.wrkThreadsFixed ? `wrk -t${ctx.settings.wrkThreads} (BENCH_WRK_THREADS)` : await threadProbe(ctx, raw);
    const get = await runRow(ctx, { group: GROUPS.getById.id, scenario: GROUPS.getById.label, server: SERVERS.raw, ceiling: 'get', url: raw.url, pid: raw.child.pid, plan: getById(ctx.settings.sizes.small) });
    const post = await runRow(ctx, { group: GROUPS.post1k.id, scenario: GROUPS.post1k.label, server: SERVERS.raw, ceiling: 'post', url: raw.url, pid: raw.child.pid, plan: createCharacter() });
    ceilings.get = get.measurement?.rps;
    ceilings.post = post.measurement?.rps;
    return [{ ...get, note: probe }, post];
  });
}

/** Alternating short wrk runs with 1 and 2 threads; sets the run's thread count and says what it found. */
async function threadProbe(ctx: BenchContext, raw: ServerProcess): Promise<string> {
  const seconds = ctx.settings.quick ? 1 : 3;
  const plan = getById(ctx.settings.sizes.small);
  const run = async (threads: number) => {
    const script = await plan.wrk({ tag: runTag(), seconds, threads });
    return (await runWrk({ ...script, url: raw.url, connections: ctx.settings.connections, seconds, threads })).rps;
  };
  ctx.progress(`wrk thread probe: -t1 against -t2 on raw node:http, ${seconds} s each, twice`);
  await run(1); // warm-up, thrown away
  const best = { 1: 0, 2: 0 };
  for (let round = 0; round < 2; round++) {
    for (const threads of [1, 2] as const) best[threads] = Math.max(best[threads], await run(threads));
  }
  const threads = best[2] >= best[1] * 1.05 ? 2 : 1;
  ctx.settings.wrkThreads = threads;
  const line = `thread probe (best of 2 × ${seconds} s): wrk -t1 ${fmt(best[1])}, -t2 ${fmt(best[2])} req/s → every row uses -t${threads}`;
  ctx.progress(line);
  return line;
}
