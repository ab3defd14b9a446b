// Rate limits that hold for the cluster: three nodes behind a round-robin balancer share one count
// per client (in the PostgreSQL database, or on a Redis server), so with a limit of N request N + 1
// is a 429 whichever node it lands on; when the shared counter is away the nodes fail open
// (counting on their own) or closed (503), and say so in the log once, not once per request.
import assert from 'node:assert/strict';
import { createServer as createHttpServer, type Server } from 'node:http';
import { after, describe, test } from 'node:test';
import type { RestwellServer } from '../../src/app/server.js';
import { engines } from '../../src/test-support/engines.js';
import { waitFor } from '../../src/test-support/wait-for.js';
import { generateEndpointSecret } from '../../src/webhooks/outbound/secrets.js';
import { redisAnswers } from '../../src/test-support/redis.js';
import { ITEMS, nodeOn, redisSection } from './rate-limit-support.js';

const postgres = engines.find((e) => e.name === 'postgres');
const redisUp = await redisAnswers();
const N = 10;

type Node = Awaited<ReturnType<typeof nodeOn>>;

/** Starts `count` nodes on one database URL (one after the other: the first creates the schema). */
async function cluster(database: string | (() => string), config: Record<string, unknown>, count = 3): Promise<Node[]> {
  const nodes: Node[] = [];
  for (let i = 0; i < count; i++) nodes.push(await nodeOn(typeof database === 'string' ? database : database(), config));
  return nodes;
}

const get = (node: RestwellServer, headers: Record<string, string> = {}) => node.app.inject({ url: '/items', headers });

/** Sends N requests round-robin, one at a time, checking the quota counts down across nodes; then one more to each node. */
async function exhaustRoundRobin(nodes: RestwellServer[], headers: Record<string, string> = {}): Promise<void> {
  for (let i = 0; i < N; i++) {
    const res = await get(nodes[i % nodes.length], headers);
    assert.equal(res.statusCode, 200, `request ${i + 1} on node ${i % nodes.length}: ${res.body}`);
    assert.equal(res.headers['ratelimit-policy'], `"default";q=${N};w=60`);
    assert.match(String(res.headers.ratelimit), new RegExp(`^"default";r=${N - 1 - i};t=\\d+$`), `request ${i + 1}`);
  }
  for (const [i, node] of nodes.entries()) {
    const res = await get(node, headers);
    assert.equal(res.statusCode, 429, `request ${N + 1 + i} on node ${i}: ${res.body}`);
    assert.match(String(res.headers.ratelimit), /^"default";r=0;t=\d+$/);
    const retry = Number(res.headers['retry-after']);
    assert.ok(retry >= 1 && retry <= 60, `Retry-After ${res.headers['retry-after']} is within the window`);
    assert.match(res.json().detail, new RegExp(`more than ${N} requests in 60 s`));
  }
}

/** 3N requests at once, spread over the nodes: exactly N pass, however the batches fall. */
async function burst(nodes: RestwellServer[], headers: Record<string, string> = {}): Promise<void> {
  const res = await Promise.all(Array.from({ length: 3 * N }, (_, i) => get(nodes[i % nodes.length], headers)));
  const statuses = res.map((r) => r.statusCode);
  assert.equal(statuses.filter((s) => s === 200).length, N, `statuses: ${statuses.join(' ')}`);
  assert.equal(statuses.filter((s) => s === 429).length, 2 * N);
  // Every remaining count from N - 1 down to 0 was told once: the counts are one sequence, not one per node.
  const remaining = res.filter((r) => r.statusCode === 200).map((r) => Number(/r=(\d+)/.exec(String(r.headers.ratelimit))![1]));
  assert.deepEqual(remaining.sort((a, b) => a - b), Array.from({ length: N }, (_, i) => i));
}

const closeAll = (nodes: RestwellServer[]) => Promise.all(nodes.map((n) => n.close()));

describe('rate limits on PostgreSQL: three nodes on one schema count together, with no extra config', { skip: postgres ? false : 'TEST_DATABASE_URL is not set (multi-node needs PostgreSQL)' }, () => {
  let nodes: Node[] = [];
  after(() => closeAll(nodes));

  test('limit N, requests round-robin with one API key: request N + 1 is 429 on every node; RateLimit counts down across nodes', async () => {
    nodes = await cluster(postgres!.freshUrl(), { resources: ITEMS, auth: { rateLimit: { limit: N, window: '1m' } } });
    const { key } = await nodes[0].context.auth.apiKeys.create({ name: 'client', scopes: [] });
    await exhaustRoundRobin(nodes, { authorization: `Bearer ${key}` });
    // Another credential has its own quota.
    const other = await nodes[1].context.auth.apiKeys.create({ name: 'other', scopes: [] });
    assert.equal((await get(nodes[2], { authorization: `Bearer ${other.key}` })).statusCode, 200);
  });

  test('3N concurrent requests over the three nodes: exactly N pass', async () => {
    const { key } = await nodes[0].context.auth.apiKeys.create({ name: 'burst', scopes: [] });
    await burst(nodes, { authorization: `Bearer ${key}` });
  });

  test('the window is timed by the database: once it ends, the next request passes with a fresh quota', async () => {
    const db = postgres!.freshUrl();
    const short = await cluster(db, { resources: ITEMS, auth: { rateLimit: { limit: 2, window: '1s' } } }, 2);
    try {
      // The window is a second long, so on a busy machine it may end between two of the three requests:
      // then the third passes in the next window, and the three are sent again until they share one.
      await waitFor(async () => {
        const statuses = [(await get(short[0])).statusCode, (await get(short[1])).statusCode, (await get(short[0])).statusCode];
        return statuses.join() === '200,200,429';
      }, 'two requests passing and the third refused within one window, over two nodes');
      const passed = await waitFor(async () => {
        const res = await get(short[1]);
        return res.statusCode === 200 && res;
      }, 'a request after the window ends');
      assert.equal(passed.headers.ratelimit, '"default";r=1;t=1');
    } finally {
      await closeAll(short);
    }
  });
});

describe('rate limits on SQLite count in memory unless told otherwise', () => {
  test('auth.rateLimitStore: database on SQLite stops start-up with a message naming the key', async () => {
    const sqlite = engines.find((e) => e.name === 'sqlite')!;
    await assert.rejects(nodeOn(sqlite.freshUrl(), { resources: ITEMS, auth: { rateLimitStore: 'database' } }), (err: Error & { problems?: string[] }) => {
      assert.match(String(err.problems ?? err.message), /auth\.rateLimitStore: database needs a database that keeps shared counters/);
      return true;
    });
  });

  test('auth.rateLimitStore: redis without a redis section is a config error', async () => {
    const sqlite = engines.find((e) => e.name === 'sqlite')!;
    await assert.rejects(nodeOn(sqlite.freshUrl(), { resources: ITEMS, auth: { rateLimitStore: 'redis' } }), /auth\.rateLimitStore: redis needs the redis section/);
  });
});

for (const engine of engines) {
  describe(`rate limits on Redis: three nodes count together (${engine.name})`, { skip: redisUp ? false : 'no Redis answers at 127.0.0.1:6379' }, () => {
    // On PostgreSQL the nodes share one schema; on SQLite each has its own file: only Redis is shared.
    const database = engine.name === 'postgres' ? engine.freshUrl() : () => engine.freshUrl();
    const config = () => ({ resources: ITEMS, auth: { rateLimit: { limit: N, window: '1m' }, rateLimitStore: 'redis' }, redis: redisSection() });

    test('limit N, anonymous requests round-robin: request N + 1 is 429 on every node', async () => {
      const nodes = await cluster(database, config());
      try {
        await exhaustRoundRobin(nodes);
      } finally {
        await closeAll(nodes);
      }
    });

    test('3N concurrent requests over the three nodes: exactly N pass', async () => {
      const nodes = await cluster(database, config());
      try {
        await burst(nodes);
      } finally {
        await closeAll(nodes);
      }
    });
  });
}

/**
 * A TCP relay to the real Redis that can be cut and restored: the shared counter becomes
 * unreachable (every connection refused) and comes back, as in an outage.
 */
async function redisRelay(): Promise<{ url: string; cut(): Promise<void>; restore(): Promise<void>; close(): Promise<void> }> {
  const { createServer: createTcpServer, connect } = await import('node:net');
  const sockets = new Set<import('node:net').Socket>();
  const server = createTcpServer((client) => {
    const upstream = connect(6379, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => sockets.delete(s));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  const listen = () => new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  const stop = () => {
    const closed = new Promise<void>((r) => server.close(() => r()));
    for (const s of sockets) s.destroy();
    return closed;
  };
  return { url: `redis://127.0.0.1:${port}`, cut: stop, restore: listen, close: () => (server.listening ? stop() : Promise.resolve()) };
}

const outageWarnings = (node: Node) => node.log.lines.filter((l) => l.level === 40 && /rate-limit counter unavailable/.test(l.msg));

for (const engine of engines) {
  describe(`when the shared counter cannot be reached (${engine.name})`, () => {
    test('fail open (the default): requests pass, counted on the node meanwhile, and one warning is logged, not one per request', async () => {
      // Nothing listens on port 1: every connection is refused.
      const node = await nodeOn(engine.freshUrl(), { resources: ITEMS, auth: { rateLimit: { limit: 3, window: '1m' }, rateLimitStore: 'redis' }, redis: { url: 'redis://127.0.0.1:1' } });
      try {
        const statuses = [];
        for (let i = 0; i < 6; i++) statuses.push((await get(node)).statusCode);
        assert.deepEqual(statuses, [200, 200, 200, 429, 429, 429], 'the node counts on its own while the counter is away');
        const warnings = outageWarnings(node);
        assert.equal(warnings.length, 1, node.log.lines.map((l) => l.msg).join('\n'));
        assert.match(warnings[0].msg, /Redis at 127\.0\.0\.1:1/);
        assert.match(warnings[0].msg, /requests pass, each node counting its own/);
      } finally {
        await node.close();
      }
    });

    test('fail closed: rate-limited requests get 503 with a detail that says why and a Retry-After; one warning is logged', async () => {
      const node = await nodeOn(engine.freshUrl(), {
        resources: ITEMS,
        auth: { rateLimit: { limit: 3, window: '1m' }, rateLimitStore: 'redis', rateLimitFailOpen: false },
        redis: { url: 'redis://127.0.0.1:1' },
      });
      try {
        for (let i = 0; i < 4; i++) {
          const res = await get(node);
          assert.equal(res.statusCode, 503, res.body);
          assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
          assert.equal(res.headers['retry-after'], '5');
          const problem = res.json();
          assert.equal(problem.type, 'http://localhost:8080/problems/unavailable');
          assert.match(problem.detail, /rate-limit counter \(Redis at 127\.0\.0\.1:1\) cannot be reached, and rate limits fail closed/);
        }
        assert.equal(outageWarnings(node).length, 1);
        assert.match(outageWarnings(node)[0].msg, /rate-limited requests get 503/);
      } finally {
        await node.close();
      }
    });

    test('an outage and its end: the node fails over to counting alone, then counts with the cluster again and says so', { skip: redisUp ? false : 'no Redis answers at 127.0.0.1:6379' }, async () => {
      const relay = await redisRelay();
      const node = await nodeOn(engine.freshUrl(), { resources: ITEMS, auth: { rateLimit: { limit: 1000, window: '1m' }, rateLimitStore: 'redis' }, redis: { ...redisSection(), url: relay.url } });
      try {
        for (let i = 0; i < 300; i++) await get(node);
        assert.match(String((await get(node)).headers.ratelimit), /^"default";r=699;/);
        await relay.cut();
        // Counted on the node alone: its own window starts at the first request it counts there.
        await waitFor(async () => (await get(node)).statusCode === 200 && outageWarnings(node).length === 1, 'the outage is noticed and requests still pass');
        assert.match(String((await get(node)).headers.ratelimit), /^"default";r=99[0-9];/, 'a fresh count on the node');
        await relay.restore();
        const recovered = await waitFor(async () => {
          await get(node);
          return node.log.lines.find((l) => l.level === 30 && /rate-limit counter available again/.test(l.msg));
        }, 'the recovery line');
        assert.match(recovered.msg, /limits hold for the cluster again/);
        // The shared count goes on from where it was: 301 before the outage, the one that logged the recovery, and this one.
        assert.match(String((await get(node)).headers.ratelimit), /^"default";r=697;/);
        assert.equal(outageWarnings(node).length, 1, 'one warning for the whole outage');
      } finally {
        await node.close();
        await relay.close();
      }
    });
  });
}

describe('outbound endpoint rate limits hold across dispatcher nodes', { skip: postgres ? false : 'TEST_DATABASE_URL is not set (multi-node needs PostgreSQL)' }, () => {
  test('an endpoint limited to 3 a minute gets 3 deliveries from two nodes together; the rest wait for the window', async () => {
    const received: string[] = [];
    const receiver: Server = createHttpServer((req, res) => {
      received.push(String(req.headers['webhook-id']));
      req.resume();
      req.on('end', () => res.writeHead(204).end());
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
    const config = {
      resources: ITEMS,
      auth: { rateLimit: false },
      webhooks: { outbound: { allowNetworks: ['127.0.0.1'], pollInterval: '50ms', retrySchedule: ['1s'] } },
    };
    const nodes = await cluster(postgres!.freshUrl(), config, 2);
    try {
      const [a, b] = nodes;
      await a.app.ready();
      await b.app.ready();
      // Node b sends nothing until a has used the quota; then a stops and only b sends.
      await b.context.outbound.attempts.stop();
      const secrets = a.context.outbound.secrets.seal([{ secret: generateEndpointSecret(), createdAt: new Date().toISOString() }]);
      const endpoint = await a.store.outbox.createEndpoint(
        { url, description: null, eventTypes: ['items.*'], enabled: true, headers: {}, rateLimit: { limit: 3, windowMs: 60_000 }, sealedSecrets: secrets },
        null,
      );
      const write = async (node: RestwellServer, name: string) => assert.equal((await node.app.inject({ method: 'POST', url: '/items', payload: { name } })).statusCode, 201);
      for (let i = 0; i < 3; i++) await write(a, `a${i}`);
      await waitFor(() => received.length === 3, 'node a delivers three');
      await a.context.outbound.attempts.stop();
      b.context.outbound.attempts.start();
      for (let i = 0; i < 3; i++) await write(b, `b${i}`);
      // Node b derives the three new deliveries and puts each back until the shared window ends.
      const deferred = await waitFor(async () => {
        const ds = await b.store.outbox.listDeliveries(endpoint.id, { limit: 100 });
        const waiting = ds.filter((d) => d.status === 'pending' && d.nextAttemptAt !== null && Date.parse(d.nextAttemptAt) > Date.now() + 30_000);
        return ds.length === 6 && waiting.length === 3 && waiting;
      }, 'node b defers the three new deliveries to the end of the shared window');
      assert.equal(deferred.length, 3);
      assert.equal(received.length, 3, 'node b sent nothing: the endpoint used its quota on node a');
      assert.ok(deferred.every((d) => d.attempts === 0), 'a deferral is not an attempt');
    } finally {
      await closeAll(nodes);
      await new Promise((r) => receiver.close(r));
    }
  });
});
