// Shared helpers of the outbound webhook acceptance tests (test/wire/outbound-*.test.ts and
// test/behaviour/multi-node-outbound.test.ts): a real receiver that verifies every request with the
// `standardwebhooks` package, `restwell serve` children configured for outbound delivery, and the
// /webhook-endpoints and /events calls the tests make. Every wait is bounded in count and time.
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { apiKeyHeaders, configFile, startServe, type ServeProcess } from '../support-process.js';

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
export const json = { 'content-type': 'application/json' };

/** One request the receiver got. */
export interface Received {
  /** The `webhook-id` header ('' when absent). */
  id: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body as JSON, when it parsed. */
  event?: any;
  /** The standardwebhooks library accepted the signature (with the receiver's secret at the time). */
  verified: boolean;
  /** Why verification failed, when it did. */
  verifyError?: string;
  /** The status answered; null while no answer was sent (held, or the connection went first). */
  status: number | null;
  /** The connection went before an answer was sent (the sender died or gave up). */
  aborted: boolean;
  /** Arrival order, over all requests of this receiver. */
  n: number;
}

/** An answer: a status, or a status with headers (a redirect's location). */
export type Answer = number | { status: number; headers?: Record<string, string> };

/** How the receiver answers one request (the nth with its webhook-id), after an optional wait (a hold). */
export type Reply = (req: Received, nthForId: number) => Answer | Promise<Answer>;

export interface Receiver {
  host: string;
  port: number;
  /** `http://host:port/hook` (IPv6 hosts in brackets). */
  url: string;
  requests: Received[];
  /** Ids whose webhook-id arrived while another request with the same webhook-id was still open. */
  overlaps: string[];
  /** Requests open right now, by webhook-id. */
  inFlight: Map<string, number>;
  /** The secret requests are verified with (set once the endpoint is created). */
  secret: string | undefined;
  reply: Reply;
  /** Distinct webhook-ids answered with a 2xx. */
  acceptedIds(): Set<string>;
  /** Requests that failed signature verification. */
  unverified(): Received[];
  close(): Promise<void>;
}

/**
 * A real node:http receiver on a loopback address (port 0). Every request's Standard Webhooks
 * signature is checked with the `standardwebhooks` package against `secret`; a request that does
 * not verify is answered 401 and kept in `unverified()`. Otherwise `reply` decides the status (204 by
 * default) and may hold the request open by resolving late. In-flight requests are counted per
 * webhook-id from arrival to the end of the answer (or the connection's close).
 */
export async function startReceiver(options: { host?: string; reply?: Reply; secret?: string } = {}): Promise<Receiver> {
  const host = options.host ?? '127.0.0.1';
  const requests: Received[] = [];
  const overlaps: string[] = [];
  const inFlight = new Map<string, number>();
  const perId = new Map<string, number>();
  const receiver: Receiver = {
    host,
    port: 0,
    url: '',
    requests,
    overlaps,
    inFlight,
    secret: options.secret,
    reply: options.reply ?? (() => 204),
    acceptedIds: () => new Set(requests.filter((r) => r.status !== null && r.status >= 200 && r.status < 300).map((r) => r.id)),
    unverified: () => requests.filter((r) => !r.verified),
    close: async () => undefined,
  };
  const server: Server = createServer((req, res) => {
    const id = String(req.headers['webhook-id'] ?? '');
    // Counted from the moment the request arrives, before its body: an overlap is two open requests.
    const open = inFlight.get(id) ?? 0;
    if (open > 0) overlaps.push(id);
    inFlight.set(id, open + 1);
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      inFlight.set(id, (inFlight.get(id) ?? 1) - 1);
    };
    const entry: Received = { id, headers: req.headers, body: '', verified: false, status: null, aborted: false, n: requests.length };
    requests.push(entry);
    res.on('close', () => {
      if (!res.writableFinished) entry.aborted = true;
      finish();
    });
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      entry.body = Buffer.concat(chunks).toString('utf8');
      try {
        entry.event = JSON.parse(entry.body);
      } catch {
        // kept as text; the tests compare with the event log
      }
      try {
        if (!receiver.secret) throw new Error('the receiver has no secret yet');
        new Webhook(receiver.secret).verify(entry.body, req.headers as Record<string, string>);
        entry.verified = true;
      } catch (err) {
        entry.verifyError = (err as Error).message;
      }
      const nth = (perId.get(id) ?? 0) + 1;
      perId.set(id, nth);
      let answer: Answer = 401;
      if (entry.verified) {
        try {
          answer = await receiver.reply(entry, nth);
        } catch {
          answer = 500;
        }
      }
      if (res.destroyed) return;
      const { status, headers } = typeof answer === 'number' ? { status: answer, headers: {} } : answer;
      entry.status = status;
      res.writeHead(status, { 'content-type': 'text/plain', ...headers }).end(status < 300 ? 'ok' : `answered ${status}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://${host.includes(':') ? `[${host}]` : host}:${receiver.port}/hook`;
  receiver.close = () => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return receiver;
}

/** A plain listener that only counts what reaches it (the loopback target of the SSRF tests). */
export async function startTrap(host = '127.0.0.1'): Promise<{ port: number; hits: string[]; close(): Promise<void> }> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url} webhook-id=${req.headers['webhook-id'] ?? ''}`);
    res.writeHead(200).end('stolen');
  });
  // A bare connection counts too (a sender that connects and then gives up).
  server.on('connection', () => hits.push('connection'));
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    hits,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A resource with no unique field: every POST is a new record and a new event. */
export const RESOURCES = { items: { fields: { name: { type: 'string', required: true } }, access: { read: 'public', write: 'public' } } };

/** `webhooks.outbound` for tests: deliveries to 127.0.0.1 allowed, short retries and polls. */
export const FAST_OUTBOUND = {
  allowNetworks: ['127.0.0.1'],
  retrySchedule: ['200ms', '200ms', '200ms'],
  pollInterval: '100ms',
  connectTimeout: '1s',
  timeout: '3s',
};

/** The config of an outbound test server: the items resource, no rate limit, and `outbound`. */
export function outboundConfig(outbound: Record<string, unknown> = FAST_OUTBOUND): Record<string, unknown> {
  return { resources: RESOURCES, auth: { rateLimit: false }, webhooks: { outbound } };
}

/** A `restwell serve` child for these tests, with the arguments that start it again on the same database. */
export interface OutboundNode extends ServeProcess {
  args: string[];
}

/** Writes the config to a file and starts `restwell serve` on `db` with it (env e.g. LOG_LEVEL). */
export async function startNode(db: string, config: Record<string, unknown> | string, env: NodeJS.ProcessEnv = {}): Promise<OutboundNode> {
  const file = typeof config === 'string' ? config : configFile(config);
  const args = ['--db', db, '--config', file];
  const server = await startServe(args, env);
  return Object.assign(server, { args });
}

/** Auth headers with an admin (`*`) API key, made by `restwell keys create` on the node's database. */
export function adminHeaders(node: Pick<OutboundNode, 'args'>): Record<string, string> {
  return apiKeyHeaders(node.args, '*');
}

/** POST /webhook-endpoints; asserts 201 and returns the endpoint with its secret (shown once). */
export async function createEndpoint(base: string, auth: Record<string, string>, body: Record<string, unknown>): Promise<{ id: string; secret: string; body: any }> {
  const res = await fetch(`${base}/webhook-endpoints`, { method: 'POST', headers: { ...json, ...auth }, body: JSON.stringify(body) });
  const text = await res.text();
  assert.equal(res.status, 201, `POST /webhook-endpoints ${JSON.stringify(body)}: ${res.status} ${text}`);
  const created = JSON.parse(text);
  assert.match(created.id, /^ep_/, text);
  assert.match(created.secret, /^whsec_/, text);
  return { id: created.id, secret: created.secret, body: created };
}

/** GET a JSON document, asserting 200. */
export async function getJson(base: string, path: string, auth: Record<string, string>): Promise<any> {
  const res = await fetch(base + path, { headers: auth });
  const text = await res.text();
  assert.equal(res.status, 200, `GET ${path}: ${res.status} ${text}`);
  return JSON.parse(text);
}

/** The items of a HAL page: the (first) array under `_embedded`. */
function embedded(page: any): any[] {
  const lists = Object.values(page?._embedded ?? {}).filter(Array.isArray) as any[][];
  return lists[0] ?? [];
}

/** Every item of a keyset-paged list, following `next` links until there is none (at most 200 pages). */
export async function allPages(base: string, path: string, auth: Record<string, string>): Promise<any[]> {
  const out: any[] = [];
  let url: string | undefined = path;
  for (let pages = 0; url; pages++) {
    assert.ok(pages < 200, `more than 200 pages at ${path}`);
    const page = await getJson(base, url, auth);
    const items = embedded(page);
    out.push(...items);
    const next: string | undefined = page._links?.next?.href;
    if (!items.length || !next || next === url) break;
    url = next.startsWith('http') ? new URL(next).pathname + new URL(next).search : next;
  }
  return out;
}

/** Every event of the log, oldest first. */
export const allEvents = (base: string, auth: Record<string, string>) => allPages(base, '/events?limit=100', auth);

/** Every delivery of an endpoint, oldest first. */
export const allDeliveries = (base: string, auth: Record<string, string>, endpointId: string) =>
  allPages(base, `/webhook-endpoints/${endpointId}/deliveries?limit=100`, auth);

/** A delivery's attempt log, oldest first. */
export const attemptsOf = (base: string, auth: Record<string, string>, endpointId: string, deliveryId: string) =>
  allPages(base, `/webhook-endpoints/${endpointId}/deliveries/${deliveryId}/attempts`, auth);

/** Polls `check` (every `everyMs`) until it returns a truthy value, or fails after `timeoutMs` with `what()`. */
export async function waitFor<T>(check: () => T | Promise<T>, what: () => string, timeoutMs = 30_000, everyMs = 100): Promise<NonNullable<T>> {
  const giveUp = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > giveUp) assert.fail(`gave up waiting after ${timeoutMs} ms: ${what()}`);
    await sleep(everyMs);
  }
}

/** POSTs `n` items (names `${prefix}-i`) at once; resolves the statuses (0 when the connection failed: a killed server). */
export async function writeItems(base: string, prefix: string, n: number): Promise<number[]> {
  return Promise.all(
    Array.from({ length: n }, async (_, i) => {
      try {
        const res = await fetch(`${base}/items`, { method: 'POST', headers: json, body: JSON.stringify({ name: `${prefix}-${i}` }) });
        await res.arrayBuffer();
        return res.status;
      } catch {
        return 0;
      }
    }),
  );
}

/** The receiver's requests as one line each, for assertion messages. */
export function describeRequests(r: Receiver, limit = 40): string {
  const lines = r.requests.slice(-limit).map((q) => `#${q.n} ${q.id} → ${q.status ?? (q.aborted ? 'aborted' : 'open')}${q.verified ? '' : ` (unverified: ${q.verifyError})`}`);
  return `${r.requests.length} requests; last ${lines.length}:\n${lines.join('\n')}`;
}
