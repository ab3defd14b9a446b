import { connect, type Socket } from 'node:net';
import { notRun, reason, seededDatabase } from '../context.js';
import type { BenchContext } from '../settings.js';
import { GROUPS, SERVERS } from '../groups.js';
import type { Measurement, Row } from '../load.js';
import { restwellCli, startRestwell, withServer } from '../servers.js';

/** Streams opened at once: all from 127.0.0.1, so the server's per-client connection cap is raised. */
const CLIENTS = 1_000;
/** Longest wait for one write to reach every stream before it counts as lost. */
const DELIVERY_TIMEOUT_MS = 10_000;
/** Concurrent writers in the throughput phase. */
const WRITERS = 8;

/**
 * Server-Sent Events fan-out: 1,000 `GET /events/stream` clients (raw sockets in this process), then
 * writes. Latency phase: one write at a time, timed from the POST until every client has its event
 * (p50/p99 columns). Throughput phase: `WRITERS` writers for the measured window; events delivered
 * across all clients per second (the req/s column), counted until every client has every event.
 */
export async function sseFanoutRows(ctx: BenchContext): Promise<Row[]> {
  const server = SERVERS.restwell;
  const scenario = GROUPS.sseFanout.label;
  const na = (why: string) => [notRun(GROUPS.sseFanout.id, scenario, server, why)];
  const extra = { server: { maxConnectionsPerClient: CLIENTS + 100 }, events: { stream: { maxClients: CLIENTS + 100 } } };
  const db = await seededDatabase(ctx, 'sse', 0, { extra });
  const created = await restwellCli(['keys', 'create', '--name', 'bench', '--scopes', 'events:read', '--db', db.db]);
  const key = (created.stdout.match(/\brw_[A-Za-z0-9_-]+/g) ?? []).sort((a, b) => b.length - a.length)[0];
  if (created.code !== 0 || !key) return na(`n/a (keys create printed no rw_ key: ${(created.stderr || created.stdout).trim().slice(0, 160)})`);
  try {
    return await withServer(startRestwell({ ...db, name: server }), async (rw) => {
      const probe = await fetch(`${rw.url}/events/stream`, { method: 'HEAD', headers: { authorization: `Bearer ${key}` } });
      if (probe.status === 404 || probe.status === 405) return na('n/a (not built)');
      const { port } = new URL(rw.url);
      const arrivals = new Arrivals();
      const clients: Client[] = [];
      // In batches: a thousand connects at once would overflow the listen backlog and wait on SYN retries.
      while (clients.length < CLIENTS) clients.push(...(await Promise.all(Array.from({ length: 100 }, () => openClient(Number(port), key, arrivals)))));
      try {
        ctx.progress(`${server.padEnd(26)} ${scenario}`);
        const m = await measureFanout(rw.url, arrivals, ctx);
        return [{ group: GROUPS.sseFanout.id, scenario, server, measurement: m, note: `req/s = events delivered per second summed over ${CLIENTS} clients (${WRITERS} writers); p50/p99 = one write until all ${CLIENTS} have it` }];
      } finally {
        for (const c of clients) c.socket.destroy();
      }
    });
  } catch (err) {
    return na(`n/a (${reason(err)})`);
  }
}

/** One stream as a raw socket, counting the events (blocks with an `id:`) it has received. */
interface Client {
  socket: Socket;
  received: number;
  closed: boolean;
}

/**
 * Tells when every client has a number of events without polling (a busy wait would take a core
 * from the server on a small machine): each client reports the moment it reaches the target.
 */
class Arrivals {
  private target = 0;
  private reached = 0;
  private wake: (() => void) | undefined;
  readonly clients: Client[] = [];

  /** Called by a client whose count went from `before` to `after`. */
  counted(before: number, after: number): void {
    if (before < this.target && after >= this.target && ++this.reached === this.clients.length) this.wake?.();
  }

  /** Resolves true once every client has at least `count` events, false after `timeoutMs`. */
  allHave(count: number, timeoutMs = DELIVERY_TIMEOUT_MS): Promise<boolean> {
    this.target = count;
    this.reached = this.clients.filter((c) => c.received >= count).length;
    if (this.reached === this.clients.length) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.wake = undefined;
        resolve(false);
      }, timeoutMs);
      this.wake = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve(true);
      };
    });
  }
}

function openClient(port: number, key: string, arrivals: Arrivals): Promise<Client> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const client: Client = { socket, received: 0, closed: false };
    let rest = '';
    let headersDone = false;
    socket.setEncoding('utf8');
    socket.on('error', reject);
    socket.on('close', () => (client.closed = true));
    socket.on('data', (chunk: string) => {
      rest += chunk;
      if (!headersDone) {
        const end = rest.indexOf('\r\n\r\n');
        if (end === -1) return;
        if (!rest.startsWith('HTTP/1.1 200')) return reject(new Error(`a stream got ${rest.split('\r\n')[0]}`));
        headersDone = true;
        rest = rest.slice(end + 4);
        arrivals.clients.push(client);
        resolve(client);
      }
      // Chunked framing lines never hold "\nid: ", so counting that (across chunk edges) counts events.
      const before = client.received;
      let at: number;
      while ((at = rest.indexOf('\nid: evt_')) !== -1) {
        client.received += 1;
        rest = rest.slice(at + 9);
      }
      if (rest.length > 16) rest = rest.slice(-16);
      if (client.received !== before) arrivals.counted(before, client.received);
    });
    socket.write(`GET /events/stream HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\nAuthorization: Bearer ${key}\r\n\r\n`);
  });
}

let written = 0;

async function post(url: string): Promise<boolean> {
  written += 1;
  const res = await fetch(`${url}/characters`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: `sse ${process.pid} ${written}`, number: '+1-555-0100' }) });
  await res.arrayBuffer();
  return res.status === 201;
}

async function measureFanout(url: string, arrivals: Arrivals, ctx: BenchContext): Promise<Measurement> {
  const { settings } = ctx;
  const { clients } = arrivals;
  let expected = 0;
  let failed = 0;
  let lost = 0;
  // Warm-up: a few writes, so the server's first-use costs are not measured.
  for (let i = 0; i < 5; i++) {
    if (await post(url)) expected += 1;
    await arrivals.allHave(expected);
  }
  const latencies: number[] = [];
  const samples = settings.quick ? 50 : 200;
  for (let i = 0; i < samples; i++) {
    const t0 = performance.now();
    if (!(await post(url))) {
      failed += 1;
      continue;
    }
    expected += 1;
    if (await arrivals.allHave(expected)) latencies.push(performance.now() - t0);
    else lost += 1;
  }
  // Throughput: writers for the measured window, then the time until the last client has the last event.
  const before = clients.reduce((n, c) => n + c.received, 0);
  const t0 = performance.now();
  const stopAt = t0 + settings.duration * 1000;
  let writes = 0;
  await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      while (performance.now() < stopAt) {
        if (await post(url)) writes += 1;
        else failed += 1;
      }
    }),
  );
  expected += writes;
  if (!(await arrivals.allHave(expected, 60_000))) lost += 1;
  const seconds = (performance.now() - t0) / 1000;
  const delivered = clients.reduce((n, c) => n + c.received, 0) - before;
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0;
  return {
    rps: delivered / seconds,
    p50: at(0.5),
    p99: at(0.99),
    requests: samples + writes,
    non2xx: failed,
    errors: lost + clients.filter((c) => c.closed).length,
    statusCodes: { '201': samples - failed + writes },
    seconds,
    connections: clients.length,
  };
}
