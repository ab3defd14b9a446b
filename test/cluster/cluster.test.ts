// A real cluster under failure: three `restwell serve` nodes on one PostgreSQL schema behind HAProxy
// (the example's configuration), with writes, reads, live event streams and outbound webhooks all
// going through the balancer while nodes are killed with SIGKILL and started again. What must hold:
// no acknowledged write is lost, an Idempotency-Key retried after a connection error, a 502 or a 409
// makes exactly one record, every event reaches the webhook receiver, and stream clients that
// reconnect with Last-Event-ID get every event of the log, none twice.
//
// `npm test` runs a short version; CLUSTER_SOAK=1 (npm run test:cluster-soak) a long one
// (CLUSTER_WRITES and CLUSTER_KILLS change its size), which prints its figures as one line.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { loadConfig } from '../../src/config/load.js';
import { waitFor } from '../../src/test-support/wait-for.js';
import { configFile, ROOT } from '../support-process.js';
import { allEvents, allPages, createEndpoint, describeRequests, json, sleep, startReceiver } from '../wire/outbound-support.js';
import { Balancer, ClusterNode, createKey, dropSchema, findHaproxy, freePort, haproxyConfigModule, ResumingStream } from './cluster-support.js';

const SOAK = process.env.CLUSTER_SOAK === '1';
const PLAN = SOAK
  ? { nodes: 3, writes: Number(process.env.CLUSTER_WRITES ?? 5000), kills: Number(process.env.CLUSTER_KILLS ?? 10), writers: 16, readers: 4, streams: 6 }
  : { nodes: 3, writes: 300, kills: 2, writers: 8, readers: 2, streams: 3 };

const pgUrl = process.env.TEST_DATABASE_URL;
const haproxy = findHaproxy();
const skip = !pgUrl ? 'TEST_DATABASE_URL is not set (a cluster shares one PostgreSQL database)' : !haproxy ? 'haproxy is not installed (apt-get install -y haproxy)' : false;

test('examples/cluster/haproxy.cfg is what haproxy-config.mjs renders for the README\'s three nodes, and HAProxy accepts it', async () => {
  const { haproxyConfig } = await haproxyConfigModule();
  // The ports examples/cluster/start.mjs uses by default: the balancer on 8080, nodes on 8081-8083, stats on 8084.
  const rendered = haproxyConfig({ port: 8080, statsPort: 8084, nodes: [1, 2, 3].map((i) => ({ name: `node${i}`, port: 8080 + i })) });
  const file = join(ROOT, 'examples', 'cluster', 'haproxy.cfg');
  assert.equal(readFileSync(file, 'utf8'), rendered, 'regenerate examples/cluster/haproxy.cfg from haproxy-config.mjs');
  if (haproxy) {
    const check = spawnSync(haproxy, ['-c', '-f', file], { encoding: 'utf8' });
    assert.equal(check.status, 0, check.stdout + check.stderr);
  }
  const config = loadConfig({ file: join(ROOT, 'examples', 'cluster', 'restwell.yaml'), env: {} });
  assert.equal(config.server.publicUrl, 'http://localhost:8080');
});

/** What a POST answered once it got an answer that is not a transient failure. */
interface Answered {
  status: number;
  body: any;
  replayed: boolean;
  /** Attempts that failed on the way: a connection error (0), a 5xx, or 409 while the first attempt still held the key. */
  failed: number[];
  /** The bodies of the 500s among them: a node's own error, not a balancer's 502-504, is worth reading. */
  errors: string[];
}

describe('a three-node cluster behind HAProxy, nodes killed with SIGKILL', { skip }, () => {
  test(`${PLAN.writes} writes, ${PLAN.kills} kills: nothing acknowledged lost, no duplicate, every event delivered and streamed`, { timeout: SOAK ? 3_600_000 : 600_000 }, async (t) => {
    const started = Date.now();
    const schema = `rw_cluster_${randomBytes(5).toString('hex')}`;
    const db = new URL(pgUrl!);
    db.searchParams.set('schema', schema);
    // A small pool per node: the test shares the database server with whatever else runs.
    db.searchParams.set('pool_max', '5');

    const [lbPort, statsPort, ...nodePorts] = await Promise.all(Array.from({ length: PLAN.nodes + 2 }, freePort));
    const lb = new Balancer(lbPort!, statsPort!);
    const config = configFile({
      server: { publicUrl: lb.url, maxConnectionsPerClient: 4096 },
      auth: { rateLimit: false },
      resources: { items: { fields: { name: { type: 'string', required: true } }, access: { read: 'public', write: 'public' } } },
      // The receiver is on this machine; short timeouts keep the lease of an attempt a kill cut off short
      // (connectTimeout + timeout + 10 s), and the retry schedule never gives up within the test.
      webhooks: { outbound: { allowNetworks: ['127.0.0.1'], retrySchedule: ['100ms', '200ms', '500ms', '1s', '2s', '2s', '5s', '5s', '10s', '10s'], pollInterval: '100ms', connectTimeout: '1s', timeout: '2s' } },
    });
    const args = ['--db', db.toString(), '--config', config];
    const nodes = nodePorts.map((port, i) => new ClusterNode(`node${i + 1}`, port, args));
    // The receiver takes its time over each delivery, so a kill is likely to land while some are in flight.
    const receiver = await startReceiver({ reply: async () => (await sleep(Math.random() * 200), 204) });
    const streams: ResumingStream[] = [];
    const output = () => `${nodes.map((n) => n.log).join('\n')}\n--- haproxy:\n${lb.log.split('\n').filter((l) => !l.includes('"GET /stats')).slice(-60).join('\n')}`;
    try {
      // Started together, as an orchestrator would: the schema sync serialises on its advisory lock.
      await Promise.all(nodes.map((n) => n.start()));
      const auth = createKey(args, '*');
      const { haproxyConfig } = await haproxyConfigModule();
      await lb.start(haproxy!, haproxyConfig({ port: lbPort!, statsPort: statsPort!, nodes: nodes.map((n) => ({ name: n.name, port: n.port })), checkInterval: 200 }), nodes.map((n) => n.name));

      const endpoint = await createEndpoint(lb.url, auth, { url: receiver.url });
      receiver.secret = endpoint.secret;
      // The streams resume from the first write's event, so they owe every event after it.
      const seed = await post(lb.url, randomUUID(), { name: 'seed' });
      assert.equal(seed.status, 201);
      const seedEvent = (await allEvents(lb.url, auth)).at(-1)!.id as string;
      for (let i = 0; i < PLAN.streams; i++) {
        const stream = new ResumingStream(`${lb.url}/events/stream`, auth, seedEvent);
        streams.push(stream);
        await stream.open();
      }

      // Writers: each write has its own Idempotency-Key and is retried with it until it is answered.
      const acknowledged: { name: string; id: string }[] = [];
      const failedAttempts: number[] = [];
      const serverErrors: string[] = [];
      const replayed: string[] = [];
      let retriedWrites = 0;
      let next = 0;
      const writer = async () => {
        while (next < PLAN.writes) {
          const i = next++;
          const key = randomUUID();
          const name = `w-${i}`;
          const answer = await post(lb.url, key, { name });
          assert.equal(answer.status, 201, `POST /items ${name}: ${answer.status} ${JSON.stringify(answer.body)}`);
          acknowledged.push({ name, id: String(answer.body.id) });
          failedAttempts.push(...answer.failed);
          serverErrors.push(...answer.errors);
          if (answer.failed.length) retriedWrites++;
          // Every tenth write is sent again with its key once it is answered: the balancer puts the
          // retry on another node, which must answer with the same record and create nothing.
          if (i % 10 === 0) {
            const again = await post(lb.url, key, { name });
            assert.equal(again.status, 201, `replay of ${name}: ${again.status} ${JSON.stringify(again.body)}`);
            assert.equal(String(again.body.id), String(answer.body.id), `the retry of ${name} answered another record`);
            assert.ok(again.replayed, `the retry of ${name} was not a replay`);
            replayed.push(name);
          }
        }
      };

      // Readers: an acknowledged record is readable through the balancer, whichever node answers.
      let writing = true;
      let reads = 0;
      const notFound: string[] = [];
      const reader = async () => {
        while (writing) {
          const record = acknowledged[Math.floor(Math.random() * acknowledged.length)];
          if (!record) {
            await sleep(10);
            continue;
          }
          try {
            const res = await fetch(`${lb.url}/items/${record.id}`);
            const body = await res.text();
            reads++;
            if (res.status === 404) notFound.push(record.id);
            else if (res.status === 200) assert.equal(JSON.parse(body).name, record.name);
            else assert.ok(res.status >= 500, `GET /items/${record.id}: ${res.status} ${body}`);
          } catch {
            // the node went down under the read: a transient failure, not a lost record
          }
          await sleep(5);
        }
      };

      // The killer: SIGKILL a node at evenly spaced points of the run, wait for HAProxy to take it
      // out, start it again on its port and wait for HAProxy to take it back.
      let kills = 0;
      const killer = async () => {
        for (let k = 0; k < PLAN.kills; k++) {
          await waitFor(() => acknowledged.length >= ((k + 1) * PLAN.writes) / (PLAN.kills + 1) || next >= PLAN.writes, `write ${k + 1} of ${PLAN.kills} kill points`);
          const node = nodes[k % nodes.length]!;
          await node.stop('SIGKILL');
          kills++;
          await lb.waitState(node.name, 'DOWN');
          await node.start();
          await lb.waitState(node.name, 'UP');
        }
      };

      const killing = killer();
      const readers = Array.from({ length: PLAN.readers }, reader);
      try {
        await Promise.all(Array.from({ length: PLAN.writers }, writer));
      } finally {
        writing = false;
      }
      await killing;
      await Promise.all(readers);
      assert.equal(kills, PLAN.kills);
      assert.deepEqual(notFound, [], 'acknowledged records answered 404');

      // 0 lost, 0 duplicates: the collection holds each write exactly once, under the id it was acknowledged with.
      const items = await allPages(lb.url, '/items?limit=100', {});
      const byName = new Map<string, string[]>();
      for (const item of items) byName.set(item.name, [...(byName.get(item.name) ?? []), String(item.id)]);
      const duplicates = [...byName].filter(([, ids]) => ids.length > 1);
      assert.deepEqual(duplicates, [], 'a write made more than one record');
      const lost = acknowledged.filter((a) => byName.get(a.name)?.[0] !== a.id);
      assert.deepEqual(lost, [], 'acknowledged writes missing');
      assert.equal(acknowledged.length, PLAN.writes);
      assert.equal(items.length, PLAN.writes + 1, 'the writes and the seed, nothing else');

      // Every event of the log reaches the receiver (at least once), whichever node claimed it.
      const events = await allEvents(lb.url, auth);
      const eventIds = events.map((e) => e.id as string);
      assert.equal(eventIds.length, new Set(eventIds).size);
      await waitFor(() => eventIds.every((id) => receiver.acceptedIds().has(id)), `every event delivered: ${eventIds.filter((id) => !receiver.acceptedIds().has(id)).length} missing\n${describeRequests(receiver)}\n${output()}`, 200);
      assert.deepEqual(receiver.unverified().map((r) => `${r.id}: ${r.verifyError}`), []);
      for (const r of receiver.requests) assert.ok(eventIds.includes(r.id), `webhook-id ${r.id} is not an event of the log`);

      // Every stream, resumed with Last-Event-ID after each kill, got every event after the seed's, in log order, none twice.
      const owed = eventIds.slice(eventIds.indexOf(seedEvent) + 1);
      assert.equal(owed.length, PLAN.writes);
      for (const [i, stream] of streams.entries()) {
        await waitFor(() => stream.ids.length >= owed.length, `stream ${i} to catch up (${stream.ids.length} of ${owed.length})`, 50);
        assert.deepEqual(stream.refusals.filter((s) => s < 500), [], `stream ${i} was refused`);
        assert.equal(new Set(stream.ids).size, stream.ids.length, `stream ${i} got an event twice`);
        assert.deepEqual(stream.ids, owed, `stream ${i} missed events or got them out of order`);
      }

      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const counts = new Map<number, number>();
      for (const s of failedAttempts) counts.set(s, (counts.get(s) ?? 0) + 1);
      const byStatus = [...counts].map(([s, n]) => `${s === 0 ? 'connection error' : s}×${n}`);
      const summary = [
        `nodes=${PLAN.nodes} writes=${PLAN.writes} kills=${kills} restarts=${nodes.reduce((n, x) => n + x.starts - 1, 0)}`,
        `lost=${lost.length} duplicates=${duplicates.length} not_found_reads=${notFound.length} reads=${reads}`,
        `retried_writes=${retriedWrites} failed_attempts=${failedAttempts.length} (${byStatus.join(', ') || 'none'}) replays=${replayed.length}`,
        `events=${eventIds.length} delivered=${receiver.acceptedIds().size} webhook_requests=${receiver.requests.length} redelivered=${receiver.requests.length - receiver.acceptedIds().size}`,
        `streams=${streams.length} stream_events=${streams.map((s) => s.ids.length).join('/')} reconnects=${streams.map((s) => s.connects - 1).join('/')} missed=0`,
        `duration=${seconds}s`,
        ...(serverErrors.length ? [`first_500=${JSON.stringify(serverErrors[0])} logged=${JSON.stringify(nodes.flatMap((n) => n.log.split('\n').filter((l) => l.includes('"level":50'))).slice(0, 2))}`] : []),
      ].join(' ');
      t.diagnostic(summary);
      if (SOAK) process.stdout.write(`cluster soak: ${summary}\n`);
    } catch (err) {
      (err as Error).message += `\n--- cluster output:\n${output()}`;
      throw err;
    } finally {
      for (const s of streams) s.close();
      await lb.stop();
      await Promise.all(nodes.map((n) => n.stop()));
      await receiver.close();
      await dropSchema(pgUrl!, schema).catch((err) => process.stderr.write(`schema ${schema} left behind: ${(err as Error).message}\n`));
    }
  });
});

/**
 * POSTs an item with an Idempotency-Key, retrying with the same key and body after a connection
 * error, a 5xx (the balancer's 502 when a node dies under the request, a node's 503) or a 409 (the
 * key is still held by an attempt a killed node was running, until its claim runs out).
 */
async function post(base: string, key: string, body: Record<string, unknown>): Promise<Answered> {
  const failed: number[] = [];
  const errors: string[] = [];
  for (let attempt = 1; ; attempt++) {
    let status = 0;
    let text = '';
    let replayed = false;
    try {
      const res = await fetch(`${base}/items`, { method: 'POST', headers: { ...json, 'idempotency-key': key }, body: JSON.stringify(body) });
      text = await res.text();
      status = res.status;
      replayed = res.headers.get('idempotent-replayed') === 'true';
    } catch {
      status = 0;
    }
    if (status !== 0 && status !== 409 && status < 500) return { status, body: text ? JSON.parse(text) : undefined, replayed, failed, errors };
    failed.push(status);
    if (status === 500) errors.push(text.slice(0, 300));
    // A key nobody ever answers is a hung cluster, not a slow one (the 409s of a claim last 10 s).
    assert.ok(failed.length < 2000, `POST /items with Idempotency-Key ${key}: no answer after ${failed.length} attempts (last ${status} ${text})`);
    // Backing off as a client should; the claim of a killed attempt lasts 10 s.
    await sleep(Math.min(25 * attempt, 500));
  }
}
