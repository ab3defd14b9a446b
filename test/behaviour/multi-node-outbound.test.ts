// Outbound webhooks from two `restwell serve` nodes on one PostgreSQL schema: the nodes share the
// deliveries through leases, so no delivery is ever in flight on both at once, every event is
// delivered, and a node killed mid-attempt leaves its delivery to the other once the lease runs out.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { engines } from '../../src/test-support/engines.js';
import {
  adminHeaders,
  allDeliveries,
  allEvents,
  attemptsOf,
  createEndpoint,
  describeRequests,
  FAST_OUTBOUND,
  json,
  outboundConfig,
  sleep,
  startNode,
  startReceiver,
  waitFor,
  writeItems,
  type OutboundNode,
} from '../wire/outbound-support.js';
import { configFile } from '../support-process.js';

const postgres = engines.find((e) => e.name === 'postgres');

describe('outbound webhooks from two nodes on one PostgreSQL database', { skip: postgres ? false : 'TEST_DATABASE_URL is not set (multi-node needs PostgreSQL)' }, () => {
  test('no delivery is in flight on both nodes at once, and every event is delivered once', { timeout: 180_000 }, async (t) => {
    // Every request is held a little, and the first of each webhook-id fails: retries, due while the
    // other node polls, are where two nodes would send one delivery together if claims overlapped.
    const receiver = await startReceiver({ reply: async (_req, nth) => (await sleep(nth === 1 ? 150 : 50), nth === 1 ? 500 : 204) });
    const db = postgres!.freshUrl();
    const config = configFile(outboundConfig());
    // Started together: schema sync and the secret key must serialise, not race.
    const nodes = await Promise.all([startNode(db, config), startNode(db, config)]);
    try {
      const auth = adminHeaders(nodes[0]);
      const endpoint = await createEndpoint(nodes[0].url, auth, { url: receiver.url });
      receiver.secret = endpoint.secret;

      // 60 records, half written on each node (each node derives from its own commits at once).
      const statuses = (await Promise.all([writeItems(nodes[0].url, 'a', 30), writeItems(nodes[1].url, 'b', 30)])).flat();
      assert.deepEqual([...new Set(statuses)], [201]);
      const events = await allEvents(nodes[1].url, auth);
      assert.equal(events.length, 60);
      const eventIds = new Set(events.map((e) => e.id as string));

      await waitFor(
        () => [...eventIds].every((id) => receiver.acceptedIds().has(id)),
        () => `not all delivered: ${describeRequests(receiver)}\n--- node 0:\n${nodes[0].output()}\n--- node 1:\n${nodes[1].output()}`,
        90_000,
        200,
      );
      assert.deepEqual(receiver.overlaps, [], 'a delivery was in flight twice at once');
      assert.deepEqual(receiver.unverified().map((r) => `${r.id}: ${r.verifyError}`), [], 'both nodes sign with the endpoint secret');
      for (const r of receiver.requests) assert.ok(eventIds.has(r.id), `webhook-id ${r.id} is not an event of the log`);
      assert.deepEqual([...receiver.acceptedIds()].sort(), [...eventIds].sort());
      // Without a crash, at-least-once is exactly once: no event was accepted twice (derived twice, or sent on both nodes).
      for (const id of eventIds) {
        const seen = receiver.requests.filter((r) => r.id === id);
        assert.equal(seen.filter((r) => r.status === 204).length, 1, `${id}: ${seen.map((r) => r.status).join(', ')}`);
        assert.equal(seen.at(-1)!.status, 204, `${id} was sent again after its 2xx`);
      }

      const deliveries = await waitFor(
        async () => {
          const all = await allDeliveries(nodes[1].url, auth, endpoint.id);
          return all.length === eventIds.size && all.every((d) => d.status === 'delivered') ? all : undefined;
        },
        () => 'deliveries not all delivered in the outbox',
        30_000,
        200,
      );
      assert.deepEqual(deliveries.map((d) => d.eventId).sort(), [...eventIds].sort(), 'one delivery per event, whichever node derived it');
      // Which node made which attempt: both nodes share the work (reported, not asserted: it depends on timing).
      const byNode = new Map<string, number>();
      for (const d of deliveries) for (const a of await attemptsOf(nodes[0].url, auth, endpoint.id, d.id)) byNode.set(a.node, (byNode.get(a.node) ?? 0) + 1);
      t.diagnostic(`attempts by node: ${[...byNode].map(([n, c]) => `${n}: ${c}`).join(', ')}; ${receiver.requests.length} requests in all`);
    } finally {
      await Promise.all(nodes.map((n) => n.stop()));
      await receiver.close();
    }
  });

  test('a node killed mid-delivery: the other node retries the delivery once the lease runs out, never while it holds', { timeout: 180_000 }, async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    // The first request is held open until the test lets go (after its sender is dead); the rest succeed.
    const receiver = await startReceiver({ reply: async (req) => (req.n === 0 ? (await held, 204) : 204) });
    const db = postgres!.freshUrl();
    // The send timeout outlasts the hold (the first node must not give up on its own, even when the
    // second takes long to start on a loaded machine); the lease is connect + timeout + a margin.
    const config = configFile(outboundConfig({ ...FAST_OUTBOUND, timeout: '30s' }));
    const first: OutboundNode = await startNode(db, config);
    let second: OutboundNode | undefined;
    try {
      const auth = adminHeaders(first);
      const endpoint = await createEndpoint(first.url, auth, { url: receiver.url });
      receiver.secret = endpoint.secret;
      const created = await fetch(`${first.url}/items`, { method: 'POST', headers: json, body: JSON.stringify({ name: 'held' }) });
      assert.equal(created.status, 201);
      const [event] = await allEvents(first.url, auth);

      await waitFor(() => receiver.inFlight.get(event.id) === 1, () => `the first node never sent: ${describeRequests(receiver)}\n${first.output()}`);
      // The other node comes up while the attempt is held, and polls many times meanwhile: it must leave the leased delivery alone.
      second = await startNode(db, config);
      await sleep(1000);
      assert.equal(receiver.requests.length, 1, `the second node sent a delivery the first still held: ${describeRequests(receiver)}`);

      await first.stop('SIGKILL');
      await waitFor(() => receiver.requests[0]!.aborted, () => 'the held request did not end with its node');
      release();

      await waitFor(
        () => receiver.acceptedIds().has(event.id),
        () => `the second node never retried: ${describeRequests(receiver)}\n--- second node:\n${second!.output()}`,
        90_000,
        200,
      );
      assert.deepEqual(receiver.overlaps, []);
      assert.deepEqual(receiver.unverified(), []);
      assert.deepEqual(receiver.requests.map((r) => r.id), [event.id, event.id], 'one cut-off request, one retry');

      const delivery = await waitFor(
        async () => {
          const [d] = await allDeliveries(second!.url, auth, endpoint.id);
          return d?.status === 'delivered' ? d : undefined;
        },
        () => 'the delivery is not marked delivered',
      );
      // The killed node's claim counted an attempt; the retry is the second, made by the surviving node.
      assert.ok(delivery.attempts >= 2, JSON.stringify(delivery));
      const attempts = await attemptsOf(second.url, auth, endpoint.id, delivery.id);
      const ok = attempts.filter((a) => a.statusCode === 204);
      assert.equal(ok.length, 1, JSON.stringify(attempts));
      assert.ok(ok[0].number >= 2, JSON.stringify(attempts));
      assert.ok(!attempts.some((a) => String(a.node).includes(`/${first.child.pid}/`)), `the killed node recorded an attempt: ${JSON.stringify(attempts)}`);
    } finally {
      release();
      await first.stop();
      await second?.stop();
      await receiver.close();
    }
  });
});
