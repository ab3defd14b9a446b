import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { notRun, reason, seededDatabase } from '../context.js';
import type { BenchContext } from '../settings.js';
import { uniqueCharacterBody, writeRestwellConfig } from '../data.js';
import { GROUPS, SERVERS } from '../groups.js';
import type { Measurement, Row } from '../load.js';
import { freePort, startServer, type ServerProcess } from '../processes.js';
import { restwellCli, ROOT, startRestwell, withServer } from '../servers.js';
import { BASE_URL, dropSchema, reachable } from './postgres.js';

/** Events per throughput round (full run): enough for a few seconds of deliveries at the target rate. */
const EVENTS = { sqlite: 20_000, postgres: 10_000, quick: 2_000 };
const ROUNDS = 3;
/** Writes before the rounds whose deliveries are thrown away (connections to the receiver, JIT, caches): a quarter of a round. */
const warmupEvents = (events: number) => Math.max(500, Math.round(events / 4));
/** Longest wait for one idle write's delivery before it counts as lost. */
const IDLE_TIMEOUT_MS = 10_000;

/** Epoch milliseconds with sub-millisecond resolution: the receiver child reads the same clock. */
const clock = () => performance.timeOrigin + performance.now();

/**
 * Outbound webhooks: Restwell delivers every `characters.created` event, signed, to one endpoint on a
 * local receiver. The req/s column is deliveries per second of a burst of writes (median of 3
 * rounds), p50/p99 the event→delivery latency of one write at a time on an idle server. On SQLite,
 * then on PostgreSQL when it is reachable. See bench/README.md ("Outbound webhooks").
 */
export async function outboundRows(ctx: BenchContext): Promise<Row[]> {
  return [await sqliteRow(ctx), await postgresRow(ctx)];
}

const na = (server: string, why: string) => notRun(GROUPS.outbound.id, GROUPS.outbound.label, server, why);

/** The config both engines serve with: loopback allowed past the SSRF guard, short retries. */
function outboundConfig() {
  return {
    webhooks: {
      outbound: {
        allowNetworks: ['127.0.0.1'],
        // Set, so the server does not keep its key in the database and warn about it at start-up.
        secretKey: randomBytes(32).toString('hex'),
        // No delivery should fail; if one does, its retry comes soon enough to be counted.
        retrySchedule: ['1s', '1s', '1s'],
      },
    },
  };
}

async function sqliteRow(ctx: BenchContext): Promise<Row> {
  const server = SERVERS.restwell;
  const db = await seededDatabase(ctx, 'outbound', 0, { extra: outboundConfig() });
  const key = await adminKey(db.db);
  if (typeof key !== 'string') return na(server, key.why);
  try {
    return await withServer(startRestwell({ ...db, name: server }), (rw) => measureOutbound(ctx, rw.url, key, ctx.settings.quick ? EVENTS.quick : EVENTS.sqlite, server));
  } catch (err) {
    return na(server, `n/a (${reason(err)})`);
  }
}

async function postgresRow(ctx: BenchContext): Promise<Row> {
  const server = SERVERS.postgres;
  const url = new URL(BASE_URL);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) return na(server, `not run (the database URL must be on a loopback address, not ${url.hostname})`);
  const unreachable = await reachable();
  if (unreachable) return na(server, `not run (PostgreSQL not reachable at ${BASE_URL}: ${unreachable})`);
  const schema = `rw_bench_${randomBytes(5).toString('hex')}`;
  url.searchParams.set('schema', schema);
  const config = writeRestwellConfig(join(ctx.work, 'outbound-postgres.config.json'), outboundConfig());
  try {
    return await withServer(startRestwell({ db: url.toString(), config, name: server }), async (rw) => {
      // After the server has started: it creates the schema the key is stored in.
      const key = await adminKey(url.toString());
      if (typeof key !== 'string') return na(server, key.why);
      return measureOutbound(ctx, rw.url, key, ctx.settings.quick ? EVENTS.quick : EVENTS.postgres, server);
    });
  } catch (err) {
    return na(server, `n/a (${reason(err)})`);
  } finally {
    await dropSchema(schema);
  }
}

/** An admin API key (`*` grants webhooks:read and webhooks:write), made with the CLI as the other rows do. */
async function adminKey(db: string): Promise<string | { why: string }> {
  const created = await restwellCli(['keys', 'create', '--name', 'bench-outbound', '--scopes', '*', '--db', db]);
  const key = (created.stdout.match(/\brw_[A-Za-z0-9_-]+/g) ?? []).sort((a, b) => b.length - a.length)[0];
  if (created.code !== 0 || !key) return { why: `n/a (keys create printed no rw_ key: ${(created.stderr || created.stdout).trim().slice(0, 160)})` };
  return key;
}

/** One endpoint, made through the API; its id. */
async function createEndpoint(url: string, key: string, target: string): Promise<string> {
  const res = await fetch(`${url}/webhook-endpoints`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: target, description: 'bench receiver' }),
  });
  const body = await res.text();
  if (res.status !== 201) throw new Error(`POST /webhook-endpoints got ${res.status}: ${body.replace(/\s+/g, ' ').slice(0, 160)}`);
  return (JSON.parse(body) as { id: string }).id;
}

async function deleteEndpoint(url: string, key: string, id: string): Promise<void> {
  const res = await fetch(`${url}/webhook-endpoints/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${key}` } });
  await res.arrayBuffer();
  if (res.status !== 204) throw new Error(`DELETE /webhook-endpoints/${id} got ${res.status}`);
}

/** One `POST /characters` (one `characters.created` event); true on 201. */
async function write(url: string): Promise<boolean> {
  const res = await fetch(`${url}/characters`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: uniqueCharacterBody() });
  await res.arrayBuffer();
  return res.status === 201;
}

async function measureOutbound(ctx: BenchContext, url: string, key: string, events: number, server: string): Promise<Row> {
  const probe = await fetch(`${url}/webhook-endpoints`, { headers: { authorization: `Bearer ${key}` } });
  await probe.arrayBuffer();
  if (probe.status === 404 || probe.status === 405) return na(server, 'n/a (not built)');

  ctx.progress(`${server.padEnd(26)} ${GROUPS.outbound.label}: one write at a time`);
  const idle = await idleLatency(ctx, url, key);
  ctx.progress(`${server.padEnd(26)} ${GROUPS.outbound.label}: ${ROUNDS} bursts of ${events.toLocaleString('en')} writes`);
  const burst = await bursts(ctx, url, key, events);

  const lats = [...idle.latencies].sort((a, b) => a - b);
  const at = (p: number) => lats[Math.min(lats.length - 1, Math.floor(p * lats.length))] ?? 0;
  const rates = burst.rounds.map((r) => r.deliveryRate);
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  const measurement: Measurement = {
    rps: med(rates),
    p50: at(0.5),
    p99: at(0.99),
    requests: idle.latencies.length + burst.rounds.reduce((n, r) => n + r.delivered, 0),
    non2xx: idle.failedWrites + burst.failedWrites,
    errors: idle.lost + burst.lost,
    statusCodes: { '201': idle.latencies.length + idle.lost + burst.rounds.reduce((n, r) => n + r.written, 0) },
    seconds: burst.rounds.reduce((n, r) => n + r.seconds, 0),
    connections: ctx.settings.connections,
  };
  const f = (n: number) => Math.round(n).toLocaleString('en');
  const replay = burst.replay
    ? `replayed backlog of ${f(burst.replay.queued)} (every round's events): ${f(burst.replay.rate)} deliveries/s from the replay's POST to the last delivery, ${f(burst.replay.spanRate)}/s first → last delivery, the 202 after ${f(burst.replay.answerMs)} ms and the first delivery ${f(burst.replay.firstMs)} ms after it (medians of ${burst.replay.rounds})`
    : `replay: ${burst.replayNote}`;
  const note = [
    `req/s = deliveries/s: ${f(events)} writes at ${ctx.settings.connections} connections, first write → ${f(events)}-th delivery, median of ${burst.rounds.length} (${rates.map(f).join(' / ')})`,
    `writes reached ${f(med(burst.rounds.map((r) => r.writeRate)))}/s (${f(burst.writesAlone)}/s in the same burst with no endpoint)`,
    `deliveries alone (first → last arrival) ${f(med(burst.rounds.map((r) => r.spanRate)))}/s`,
    `last delivery ${f(med(burst.rounds.map((r) => r.tailMs)))} ms after the last write`,
    replay,
    `p50/p99 = one write at a time, POST sent → arrival at the receiver (${idle.latencies.length} samples; the POST's own 201 took p50 ${med(idle.answers).toFixed(1)} ms)`,
    burst.extra ? `${burst.extra} deliveries more than events written` : '',
  ]
    .filter(Boolean)
    .join('; ');
  // The burst's own pace next to the writes', so a target can judge whether deliveries kept up with them.
  const figures: Record<string, number> = rates.length ? { burstDeliveriesPerSecond: med(rates), burstWritesPerSecond: med(burst.rounds.map((r) => r.writeRate)) } : {};
  if (burst.replay) figures.backlogDeliveriesPerSecond = burst.replay.rate;
  return { group: GROUPS.outbound.id, scenario: GROUPS.outbound.label, server, measurement, note, warning: burst.warning, figures };
}

/**
 * Latency at idle: the receiver runs in this process (the same clock; one request at a time cannot
 * make this process the bottleneck), one write at a time, each timed from just before its POST is
 * sent until its delivery arrives.
 */
async function idleLatency(ctx: BenchContext, url: string, key: string): Promise<{ latencies: number[]; answers: number[]; lost: number; failedWrites: number }> {
  const local = await LocalReceiver.start();
  const endpoint = await createEndpoint(url, key, `${local.url}/hooks/bench`);
  const latencies: number[] = [];
  /** How long each POST took to answer 201: the part of the latency that is the write itself. */
  const answers: number[] = [];
  let lost = 0;
  let failedWrites = 0;
  let expected = 0;
  try {
    for (let i = 0; i < 5 + (ctx.settings.quick ? 50 : 200); i++) {
      const t0 = performance.now();
      if (!(await write(url))) {
        failedWrites += 1;
        continue;
      }
      const answered = performance.now();
      expected += 1;
      const arrived = await local.arrivalOf(expected, IDLE_TIMEOUT_MS);
      if (arrived === undefined) {
        lost += 1;
        // Whatever arrives late must not be taken for the next write's delivery.
        expected = Math.max(expected, local.distinct);
        if (lost >= 3) break;
        continue;
      }
      if (i >= 5) {
        latencies.push(arrived - t0);
        answers.push(answered - t0);
      }
    }
  } finally {
    await deleteEndpoint(url, key, endpoint);
    await local.close();
  }
  return { latencies, answers, lost, failedWrites };
}

/** The in-process receiver of the idle-latency phase: 204 at once, arrival times by `performance.now()`. */
class LocalReceiver {
  private readonly seen = new Set<string>();
  private readonly arrivals: number[] = [];
  private waiter: { n: number; wake: () => void } | undefined;

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<LocalReceiver> {
    const port = await freePort();
    let self: LocalReceiver | undefined;
    const server = createServer((req, res) => {
      self?.arrived(String(req.headers['webhook-id'] ?? Math.random()), performance.now());
      req.resume();
      req.on('end', () => res.writeHead(204).end());
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    self = new LocalReceiver(server, `http://127.0.0.1:${port}`);
    return self;
  }

  get distinct(): number {
    return this.arrivals.length;
  }

  private arrived(id: string, at: number): void {
    if (this.seen.has(id)) return;
    this.seen.add(id);
    this.arrivals.push(at);
    if (this.waiter && this.arrivals.length >= this.waiter.n) this.waiter.wake();
  }

  /** The arrival time of the n-th distinct delivery, waiting for it up to `timeoutMs`. */
  arrivalOf(n: number, timeoutMs: number): Promise<number | undefined> {
    if (this.arrivals.length >= n) return Promise.resolve(this.arrivals[n - 1]);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiter = undefined;
        resolve(undefined);
      }, timeoutMs);
      this.waiter = {
        n,
        wake: () => {
          clearTimeout(timer);
          this.waiter = undefined;
          resolve(this.arrivals[n - 1]);
        },
      };
    });
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** What the receiver child reports (times in epoch ms on the shared clock). */
interface ReceiverStats {
  count: number;
  distinct: number;
  first: number;
  last: number;
  nth: number | null;
}

/** The raw node:http receiver in its own process (bench/webhook-receiver.mjs). */
async function startReceiver(): Promise<ServerProcess> {
  const port = await freePort();
  return startServer({ name: 'webhook receiver', command: process.execPath, args: [join(ROOT, 'bench', 'webhook-receiver.mjs'), String(port)], port, readyPath: '/_stats' });
}

async function receiverWait(receiver: ServerProcess, count: number, timeoutMs: number): Promise<ReceiverStats> {
  const res = await fetch(`${receiver.url}/_wait?count=${count}&timeoutMs=${timeoutMs}`, { signal: AbortSignal.timeout(timeoutMs + 10_000) });
  return (await res.json()) as ReceiverStats;
}

async function receiverReset(receiver: ServerProcess): Promise<void> {
  const res = await fetch(`${receiver.url}/_reset`, { method: 'POST' });
  await res.arrayBuffer();
}

/**
 * `amount` POST /characters over `connections` connections (autocannon, as the other write rows): the
 * 201s, and when the last answer came (autocannon itself resolves only at its next 1 s tick).
 */
async function writeBurst(url: string, amount: number, connections: number): Promise<{ created: number; failed: number; lastAnswer: number }> {
  let lastAnswer = 0;
  const instance = autocannon({
    url,
    connections,
    amount,
    timeout: 30,
    requests: [{ setupRequest: (request) => ({ ...request, method: 'POST', path: '/characters', headers: { 'content-type': 'application/json' }, body: uniqueCharacterBody() }) }],
  });
  instance.on('response', () => (lastAnswer = clock()));
  const r = await instance;
  const created = Number(r.statusCodeStats?.['201']?.count ?? 0);
  return { created, failed: amount - created, lastAnswer };
}

/** One replay of the backlog, timed from just before its POST. */
interface ReplayRun {
  /** Deliveries / (POST sent → last arrival). */
  rate: number;
  /** Deliveries / (first → last arrival): the dispatcher's pace once it has started. */
  spanRate: number;
  /** POST sent → its 202 (the replay's own transaction). */
  answerMs: number;
  /** 202 → the first delivery's arrival. */
  firstMs: number;
}

interface Round {
  written: number;
  delivered: number;
  /** Events written / (first write → last event's delivery). */
  deliveryRate: number;
  writeRate: number;
  /** Deliveries / (first → last arrival): the dispatcher's pace once it has work. */
  spanRate: number;
  /** Last delivery after the last write's answer. */
  tailMs: number;
  seconds: number;
}

/**
 * Throughput: first one burst of `events` writes with no endpoint (the writes' own pace), then the
 * receiver child, one endpoint, a warm-up burst, then `ROUNDS` bursts of `events`
 * writes; each round from just before the first write until the receiver has every event. Then, when
 * the route exists, every round's events are replayed (`POST …/replays`), `ROUNDS` times: the
 * dispatcher working off a backlog with no writes competing for the CPU.
 */
async function bursts(ctx: BenchContext, url: string, key: string, events: number) {
  const connections = ctx.settings.connections;
  const waitMs = 30_000 + events * 2;
  const receiver = await startReceiver();
  const rounds: Round[] = [];
  let lost = 0;
  let failedWrites = 0;
  let extra = 0;
  let warning: string | undefined;
  let replay: { queued: number; rate: number; spanRate: number; answerMs: number; firstMs: number; rounds: number } | undefined;
  let replayNote = 'not run';
  let writesAlone = 0;
  try {
    // The same burst with no endpoint at all: what the writes reach when nothing is delivered.
    const t0 = clock();
    const alone = await writeBurst(url, events, connections);
    writesAlone = alone.created / ((alone.lastAnswer - t0) / 1000);
    failedWrites += alone.failed;

    const endpoint = await createEndpoint(url, key, `${receiver.url}/hooks/bench`);
    const warm = await writeBurst(url, warmupEvents(events), connections);
    await receiverWait(receiver, warm.created, waitMs);

    // Before the first round's first write: the replay below takes every round's events, a backlog
    // ROUNDS times a burst, so the pass that starts it and the last partial batch weigh less in its rate.
    const since = new Date(Date.now() - 1).toISOString();
    for (let i = 0; i < ROUNDS; i++) {
      await receiverReset(receiver);
      const t0 = clock();
      const { created, failed, lastAnswer: writesDone } = await writeBurst(url, events, connections);
      failedWrites += failed;
      const s = await receiverWait(receiver, created, waitMs);
      if (s.nth === null) {
        lost += created - s.distinct;
        warning = `round ${i + 1}: ${s.distinct.toLocaleString('en')} of ${created.toLocaleString('en')} events delivered within ${Math.round(waitMs / 1000)} s`;
        break;
      }
      // Anything more (a retry, or an event this round did not write) shows up within a moment.
      await new Promise((r) => setTimeout(r, 200));
      const after = await receiverWait(receiver, 0, 0);
      extra += after.count - created;
      rounds.push({
        written: created,
        delivered: created,
        deliveryRate: created / ((s.nth - t0) / 1000),
        writeRate: created / ((writesDone - t0) / 1000),
        spanRate: (created - 1) / ((s.nth - s.first) / 1000),
        tailMs: s.nth - writesDone,
        seconds: (s.nth - t0) / 1000,
      });
      ctx.progress(`  round ${i + 1}: ${Math.round(rounds[i].deliveryRate)} deliveries/s, writes ${Math.round(rounds[i].writeRate)}/s`);
    }

    if (rounds.length === ROUNDS) {
      const runs: ReplayRun[] = [];
      let queued = 0;
      for (let i = 0; i < ROUNDS; i++) {
        await receiverReset(receiver);
        const t0 = clock();
        const n = await replaySince(url, key, endpoint, since);
        const answered = clock();
        if (typeof n === 'string') {
          replayNote = n;
          break;
        }
        queued = n;
        const replayWaitMs = 30_000 + n * 2;
        const s = await receiverWait(receiver, n, replayWaitMs);
        if (s.nth === null) {
          replayNote = `${s.distinct} of ${n} replayed deliveries arrived within ${Math.round(replayWaitMs / 1000)} s`;
          break;
        }
        runs.push({ rate: n / ((s.nth - t0) / 1000), spanRate: (n - 1) / ((s.nth - s.first) / 1000), answerMs: answered - t0, firstMs: s.first - answered });
        ctx.progress(`  replay ${i + 1}: ${Math.round(runs[i]!.rate)} deliveries/s (first → last ${Math.round(runs[i]!.spanRate)}/s; 202 after ${Math.round(runs[i]!.answerMs)} ms, first delivery ${Math.round(runs[i]!.firstMs)} ms later)`);
      }
      if (runs.length === ROUNDS) {
        const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
        replay = { queued, rate: med(runs.map((r) => r.rate)), spanRate: med(runs.map((r) => r.spanRate)), answerMs: med(runs.map((r) => r.answerMs)), firstMs: med(runs.map((r) => r.firstMs)), rounds: runs.length };
      }
    }
  } finally {
    await receiver.stop();
  }
  return { rounds, lost, failedWrites, extra, warning, replay, replayNote, writesAlone };
}

/** Queues every event committed since `since` again; the number queued, or why not. */
async function replaySince(url: string, key: string, endpoint: string, since: string): Promise<number | string> {
  const res = await fetch(`${url}/webhook-endpoints/${endpoint}/replays`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ since }),
  });
  const body = await res.text();
  if (res.status === 404 || res.status === 405) return 'n/a (not built)';
  if (res.status !== 202) return `POST …/replays got ${res.status}`;
  return Number((JSON.parse(body) as { queued: number }).queued);
}
