import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { notRun, reason, seededDatabase, seedOverHttp } from '../context.js';
import { writeRestwellConfig } from '../data.js';
import type { BenchContext } from '../settings.js';
import { GROUPS, SERVERS } from '../groups.js';
import { toMeasurement, type Row } from '../load.js';
import { createCharacter } from '../requests.js';
import { restwellCli, ROOT, startRestwell, withServer } from '../servers.js';
import { processStat, rssMiB, runTag, runWrk, type WrkResult } from '../wrk.js';
import { BASE_URL, dropSchema, reachable } from './postgres.js';

/** Streams kept open through the write load. */
const CLIENTS = 1_000;
const CLIENTS_SHOWN = CLIENTS.toLocaleString('en');
/**
 * Loopback addresses the streams connect from, 250 each: the server counts connections per client
 * address (server.maxConnectionsPerClient, 256 by default), and wrk's 32 come from 127.0.0.1. So the
 * server runs with its default caps, as a thousand real clients on their own addresses would meet it.
 */
const CLIENT_ADDRESSES = ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5'];
/** Longest wait, after the writes stop, for every stream to have every event before the rest count as lost. */
const DELIVERY_TIMEOUT_MS = 60_000;
/** How often the server's RSS is sampled during the measured window (its peak goes into the note). */
const RSS_SAMPLE_MS = 250;

/** A server the rows run against: its engine's label, its database and config, and how to seed it. */
interface Target {
  server: string;
  db: string;
  config: string;
  /** Seeds 1k characters when the bench cannot seed the engine's file directly (PostgreSQL). */
  seed?: (url: string) => Promise<void>;
}

/**
 * Memory and write latency with 1,000 open event streams under write load. One server with its
 * default settings (request logging included): a POST /characters window with wrk and no stream
 * open (the baseline), then 1,000 `GET /events/stream` clients (a child process of their own, each
 * counting its events) and the same window again. RSS is read before the clients connect, with them
 * connected and idle (before any write, and again after the warm-up's events reached them all), at
 * the end of the write load, and sampled through it for the peak. Every client must receive every
 * event the writes made, and none may be dropped. On SQLite, and on PostgreSQL when reachable.
 */
export async function sseLoadRows(ctx: BenchContext): Promise<Row[]> {
  const sqlite = await seededDatabase(ctx, 'sse-load', ctx.settings.sizes.small);
  const rows = await engineRows(ctx, { server: SERVERS.restwell, ...sqlite });
  const unreachable = await reachable();
  if (unreachable) return [...rows, ...notRunRows(SERVERS.postgres, `n/a (PostgreSQL not reachable at ${BASE_URL}: ${unreachable})`)];
  const schema = `rw_bench_${randomBytes(5).toString('hex')}`;
  const url = new URL(BASE_URL);
  url.searchParams.set('schema', schema);
  try {
    const config = writeRestwellConfig(join(ctx.work, 'sse-load-pg.config.json'));
    const small = ctx.settings.sizes.small;
    return [...rows, ...(await engineRows(ctx, { server: SERVERS.postgres, db: url.toString(), config, seed: (rw) => seedOverHttp(rw, small) }))];
  } finally {
    await dropSchema(schema);
  }
}

function notRunRows(server: string, why: string): Row[] {
  return [notRun(GROUPS.sseLoad.id, GROUPS.sseLoad.label, `${server}, no stream open`, why), notRun(GROUPS.sseLoad.id, GROUPS.sseLoad.label, `${server} + ${CLIENTS_SHOWN} streams`, why)];
}

async function engineRows(ctx: BenchContext, target: Target): Promise<Row[]> {
  const na = (why: string) => notRunRows(target.server, why);
  try {
    return await withServer(startRestwell({ db: target.db, config: target.config, name: target.server }), async (rw) => {
      await target.seed?.(rw.url);
      // Created after the server's start: on PostgreSQL the schema exists only once the server made it.
      const created = await restwellCli(['keys', 'create', '--name', 'bench-sse-load', '--scopes', 'events:read', '--db', target.db]);
      const key = (created.stdout.match(/\brw_[A-Za-z0-9_-]+/g) ?? []).sort((a, b) => b.length - a.length)[0];
      if (created.code !== 0 || !key) return na(`n/a (keys create printed no rw_ key: ${(created.stderr || created.stdout).trim().slice(0, 160)})`);
      const probe = await fetch(`${rw.url}/events/stream`, { method: 'HEAD', headers: { authorization: `Bearer ${key}` } });
      if (probe.status === 404 || probe.status === 405) return na('n/a (not built)');
      return await measureRows(ctx, target.server, rw.url, rw.child.pid!, key);
    });
  } catch (err) {
    return na(`n/a (${reason(err)})`);
  }
}

async function measureRows(ctx: BenchContext, server: string, url: string, pid: number, key: string): Promise<Row[]> {
  const { settings } = ctx;
  const scenario = GROUPS.sseLoad.label;
  const label = (s: string) => `${server.padEnd(26)} ${s}`;
  const run = (seconds: number): Promise<WrkResult> => {
    const plan = createCharacter();
    return Promise.resolve(plan.wrk({ tag: runTag(), seconds, threads: settings.wrkThreads })).then((script) =>
      runWrk({ ...script, url, connections: settings.connections, seconds, threads: settings.wrkThreads, serverPid: pid }),
    );
  };
  const created = (r: WrkResult) => r.statusCodes['201'] ?? 0;

  ctx.progress(label(`${scenario}: POST window with no stream open`));
  await run(settings.writeWarmup);
  const alone = await run(settings.duration);
  const rssBefore = rssMiB(pid);

  const clients = await startClients(Number(new URL(url).port), key);
  try {
    const rssConnected = rssMiB(pid);
    ctx.progress(label(`RSS ${rssBefore.toFixed(1)} MiB before the streams, ${rssConnected.toFixed(1)} MiB with ${CLIENTS_SHOWN} idle; ${settings.warmup} s warm-up, then ${settings.duration} s of POSTs`));
    // The reads' longer warm-up: the heap grows into its working size with the streams' writes, and
    // that growth is not what the end-of-load reading is compared for.
    const warm = await run(settings.warmup);
    let expected = created(warm);
    await clients.await(expected, DELIVERY_TIMEOUT_MS);
    const rssIdle = rssMiB(pid);

    const clientCpu0 = processStat(clients.pid)?.seconds ?? NaN;
    const peak = sampleRss(pid);
    const loaded = await run(settings.duration);
    const rssEnd = rssMiB(pid);
    const rssPeak = peak.stop();
    const clientCores = ((processStat(clients.pid)?.seconds ?? NaN) - clientCpu0) / loaded.seconds;
    expected += created(loaded);
    const t0 = performance.now();
    const first = await clients.await(expected, DELIVERY_TIMEOUT_MS);
    const drainSeconds = (performance.now() - t0) / 1000;
    // A write wrk cut off at the end of a window may still have committed: its event counts too. Every
    // stream reads the whole log, so each must end with as many as the one with the most.
    const counts = first.max > expected ? await clients.await(first.max, DELIVERY_TIMEOUT_MS) : first;
    expected = Math.max(expected, counts.want);
    const rssDrained = rssMiB(pid);

    // Counts are cumulative: a stream that missed a warm-up event is still short at the end.
    const lost = counts.behind;
    const growth = rssEnd / rssIdle - 1;
    const mib = (n: number) => `${n.toFixed(1)} MiB`;
    const signed = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;
    const fmt = (n: number) => Math.round(n).toLocaleString('en');
    const delivery =
      lost === 0 && counts.closed === 0
        ? `all ${CLIENTS_SHOWN} streams received all ${fmt(expected)} events (${fmt(CLIENTS * expected)} deliveries), none dropped; the last ${drainSeconds.toFixed(1)} s after the writes stopped`
        : `${lost} of ${CLIENTS_SHOWN} streams missed events (fewest received ${fmt(counts.min)} of ${fmt(expected)}), ${counts.closed} closed by the server (slow consumers or errors)`;
    const note =
      `RSS ${mib(rssBefore)} before the streams, ${mib(rssConnected)} with ${CLIENTS_SHOWN} connected, ${mib(rssIdle)} idle after the warm-up, ` +
      `${mib(rssEnd)} at the end of the writes (${signed(growth)}; peak ${mib(rssPeak)}), ${mib(rssDrained)} once delivered; ${delivery}; ` +
      `POST p99 ${loaded.p99.toFixed(1)} ms against ${alone.p99.toFixed(1)} ms with no stream open (same server, just before); stream clients' process ${clientCores.toFixed(2)} cores`;
    ctx.progress(label(note));
    const base = { group: GROUPS.sseLoad.id, scenario };
    return [
      { ...base, server: `${server}, no stream open`, measurement: toMeasurement(alone, settings), note: 'the same server and window, right before the streams connect' },
      {
        ...base,
        server: `${server} + ${CLIENTS_SHOWN} streams`,
        measurement: { ...toMeasurement(loaded, settings), errors: loaded.errors + lost + counts.closed },
        note,
        figures: {
          clients: CLIENTS,
          rssBeforeMiB: rssBefore,
          rssConnectedMiB: rssConnected,
          rssIdleMiB: rssIdle,
          rssEndMiB: rssEnd,
          rssPeakMiB: rssPeak,
          rssGrowth: growth,
          events: expected,
          lost,
          dropped: counts.closed,
          p99AloneMs: alone.p99,
          rpsAlone: alone.rps,
        },
      },
    ];
  } finally {
    clients.stop();
  }
}

/** Samples a process's RSS until stopped; returns the highest reading. */
function sampleRss(pid: number): { stop(): number } {
  let peak = rssMiB(pid);
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssMiB(pid));
    } catch {
      // The server is gone; the row's figures will say so.
    }
  }, RSS_SAMPLE_MS);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, rssMiB(pid));
    },
  };
}

/** What the clients' process reports: events counted per stream (fewest, most), streams below the count asked for, streams the server closed. */
interface Counts {
  want: number;
  open: number;
  min: number;
  max: number;
  behind: number;
  closed: number;
}

/** The stream clients (bench/sse-clients.mjs), once all of them are open. */
interface Clients {
  pid: number;
  /** Resolves once every open stream has `count` events, or at the timeout, with the counts either way. */
  await(count: number, timeoutMs: number): Promise<Counts>;
  stop(): void;
}

function startClients(port: number, key: string): Promise<Clients> {
  const child: ChildProcess = fork(join(ROOT, 'bench', 'sse-clients.mjs'), [String(port), key, String(CLIENTS), CLIENT_ADDRESSES.join(',')], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'], execArgv: [] });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-2000)));
  const stop = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  return new Promise((resolve, reject) => {
    const gone = (code: number | null) => reject(new Error(`the stream clients' process exited (${code}) before its streams were open: ${stderr.trim().slice(-300)}`));
    child.once('exit', gone);
    child.once('message', (msg: { type: string; message?: string; open?: number }) => {
      child.off('exit', gone);
      if (msg.type !== 'ready') {
        stop();
        return reject(new Error(`opening ${CLIENTS_SHOWN} streams failed: ${msg.message}`));
      }
      resolve({
        pid: child.pid!,
        stop,
        await: (count, timeoutMs) =>
          new Promise((done, fail) => {
            const exited = () => fail(new Error(`the stream clients' process died: ${stderr.trim().slice(-300)}`));
            child.once('exit', exited);
            child.once('message', (counts: Counts) => {
              child.off('exit', exited);
              done(counts);
            });
            child.send({ type: 'await', count, timeoutMs });
          }),
      });
    });
  });
}
