import { runWrk, rssMiB, runTag, type WrkResult } from '../wrk.js';
import { seededDatabase } from '../context.js';
import type { BenchContext } from '../settings.js';
import { GROUPS, SERVERS } from '../groups.js';
import { toMeasurement, type Row } from '../load.js';
import { getById, preflight } from '../requests.js';
import { startRestwell, withServer } from '../servers.js';

/** Requests before the first reading. */
const FIRST = 10_000;
/** Longest the 1M part may take; a server too slow for it gets a row saying how far it came. */
const CAP_SECONDS = 180;

/**
 * Memory (issue 12): a freshly started Restwell on 1k rows, `GET /characters/{id}` with wrk and no
 * warm-up; the server's VmRSS (/proc/<pid>/status) after the first 10k requests, then after 1M in all
 * (100k in a quick run). The 10k are wrk runs whose threads stop at their share of the count; the rest
 * is wrk runs of a fixed duration, repeated (each sized from the rate of the one before, 2-15 s) until
 * the total reaches the count, so every run's req/s is honest. The row's req/s is the total over the
 * total time; p50/p99 are those of the longest run.
 */
export async function memoryRows(ctx: BenchContext): Promise<Row[]> {
  const server = SERVERS.restwell;
  const { small } = ctx.settings.sizes;
  const target = ctx.settings.quick ? 100_000 : 1_000_000;
  const scenario = GROUPS.memory.label;
  const db = await seededDatabase(ctx, 'memory-1k', small);
  return withServer(startRestwell(db), async (rw) => {
    const pid = rw.child.pid!;
    const base = { group: GROUPS.memory.id, scenario, server, ceiling: 'get' as const };
    const first = await preflight(rw.url, getById(small));
    if (!first.ok) return [{ ...base, note: `first request got ${first.status}: ${first.body.slice(0, 120)}` }];
    const { connections, wrkThreads: threads } = ctx.settings;
    const rssStart = rssMiB(pid);
    ctx.progress(`${server.padEnd(26)} ${scenario}: RSS ${rssStart.toFixed(1)} MiB at start`);
    const run = async (seconds: number, perThreadLimit = 0): Promise<WrkResult> => {
      const script = await getById(small, undefined, perThreadLimit).wrk({ tag: runTag(), seconds, threads });
      return runWrk({ ...script, url: rw.url, connections, seconds, threads, serverPid: pid });
    };

    const runs: WrkResult[] = [];
    let done = 1;
    // A thread stops once it has sent its share; the last few in flight may go unanswered, hence 99%.
    while (done < FIRST * 0.99) {
      const r = await run(2, Math.ceil((FIRST - done) / threads));
      runs.push(r);
      done += r.requests;
      if (r.requests === 0) throw new Error(`wrk completed no request in 2 s (${r.errors} socket errors)`);
    }
    const rss10k = rssMiB(pid);
    const at10k = done;
    ctx.progress(`${server.padEnd(26)} RSS ${rss10k.toFixed(1)} MiB after ${done.toLocaleString('en')} requests; now to ${target.toLocaleString('en')}`);

    const timed: WrkResult[] = [];
    let rate = 0;
    let spent = 0;
    while (done < target && spent < CAP_SECONDS) {
      const seconds = rate ? Math.min(15, Math.max(2, Math.ceil((target - done) / rate))) : 5;
      const r = await run(Math.min(seconds, CAP_SECONDS - spent));
      timed.push(r);
      done += r.requests;
      spent += r.seconds;
      rate = r.rps;
    }
    const rssEnd = rssMiB(pid);
    const growth = rssEnd / rss10k - 1;
    const total = timed.reduce((n, r) => n + r.requests, 0);
    const longest = timed.reduce((a, b) => (b.seconds > a.seconds ? b : a));
    const all = [...runs, ...timed];
    const merged: WrkResult = {
      ...longest,
      requests: total,
      seconds: spent,
      rps: total / spent,
      non2xx: all.reduce((n, r) => n + r.non2xx, 0),
      errors: all.reduce((n, r) => n + r.errors, 0),
      statusCodes: sumCodes(all),
    };
    const mib = (n: number) => `${n.toFixed(1)} MiB`;
    const short = done < target ? `; stopped at ${done.toLocaleString('en')} requests after ${CAP_SECONDS} s` : '';
    const note =
      `RSS ${mib(rssStart)} at start, ${mib(rss10k)} after ${at10k.toLocaleString('en')} requests, ${mib(rssEnd)} after ${done.toLocaleString('en')} ` +
      `(${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(1)}%); req/s over the ${timed.length} wrk runs after the first 10k, p50/p99 of the longest${short}`;
    ctx.progress(`${server.padEnd(26)} ${note}`);
    return [{ ...base, measurement: toMeasurement(merged, ctx.settings), note, figures: { rssStartMiB: rssStart, rss10kMiB: rss10k, rssEndMiB: rssEnd, rssGrowth: growth, requests: done, first: at10k } }];
  });
}

function sumCodes(runs: WrkResult[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of runs) for (const [code, n] of Object.entries(r.statusCodes)) out[code] = (out[code] ?? 0) + n;
  return out;
}
