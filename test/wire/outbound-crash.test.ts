// kill -9 during a burst of writes loses no outbound delivery: deliveries are derived from the
// committed event log, so after a restart every committed event reaches the receiver (at least
// once; after dedupe by webhook-id exactly the set of events), whatever the kill interrupted.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { engines } from '../../src/test-support/engines.js';
import {
  adminHeaders,
  allDeliveries,
  allEvents,
  attemptsOf,
  createEndpoint,
  describeRequests,
  FAST_OUTBOUND,
  outboundConfig,
  sleep,
  startNode,
  startReceiver,
  waitFor,
  writeItems,
  type OutboundNode,
} from './outbound-support.js';

const ROUNDS = 3;
const BATCHES = 8;
const BATCH = 5;

for (const engine of engines) {
  test(`kill -9 mid-burst: every committed event reaches the receiver after restart (${engine.name})`, { timeout: 300_000 }, async (t) => {
    // A receiver that takes a moment over each request, so kills land while deliveries are in flight.
    const receiver = await startReceiver({ reply: async () => (await sleep(Math.random() * 100), 204) });
    const db = engine.freshUrl();
    // A short send timeout keeps the lease of an attempt the kill cut off short (connect + timeout + margin).
    const config = outboundConfig({ ...FAST_OUTBOUND, timeout: '2s' });
    let node: OutboundNode = await startNode(db, config);
    const outputs: string[] = [];
    try {
      const auth = adminHeaders(node);
      const endpoint = await createEndpoint(node.url, auth, { url: receiver.url });
      receiver.secret = endpoint.secret;

      let acknowledged = 0;
      let lost = 0;
      for (let round = 0; round < ROUNDS; round++) {
        if (round > 0) node = await startNode(db, config);
        const base = node.url;
        // The burst: batches of writes one after another, until the server is gone.
        const burst = (async () => {
          const statuses: number[] = [];
          for (let batch = 0; batch < BATCHES && !statuses.includes(0); batch++) statuses.push(...(await writeItems(base, `r${round}b${batch}`, BATCH)));
          return statuses;
        })();
        // The kill lands once some of this round's deliveries have arrived (a random number of them):
        // while later writes are committing, and earlier ones are being derived, claimed and sent.
        const from = receiver.requests.length;
        const killAfter = 1 + Math.floor(Math.random() * (BATCHES * BATCH * 0.6));
        await waitFor(() => receiver.requests.length - from >= killAfter, () => `round ${round}: fewer than ${killAfter} deliveries arrived\n${node.output()}`, 30_000, 5);
        await node.stop('SIGKILL');
        outputs.push(node.output());
        const statuses = await burst;
        assert.deepEqual(statuses.filter((s) => s !== 201 && s !== 0), [], 'a write either succeeded or lost its connection to the kill');
        acknowledged += statuses.filter((s) => s === 201).length;
        lost += statuses.filter((s) => s === 0).length;
      }

      node = await startNode(db, config);
      // The endpoint (made on an empty database, every event type) is owed every event of the log.
      const all = await allEvents(node.url, auth);
      const eventIds = new Set(all.map((e) => e.id as string));
      const events = all.filter((e) => e.type.startsWith('items.'));
      // Every acknowledged write is committed (and some the kill cut off may be too).
      assert.ok(events.length >= acknowledged, `${events.length} events for ${acknowledged} acknowledged writes`);
      assert.ok(events.length <= acknowledged + lost);

      await waitFor(
        () => [...eventIds].every((id) => receiver.acceptedIds().has(id)),
        () => {
          const missing = [...eventIds].filter((id) => !receiver.acceptedIds().has(id));
          return `${missing.length} of ${eventIds.size} committed events never reached the receiver: ${missing.slice(0, 10).join(', ')}\n${describeRequests(receiver)}\n--- server output:\n${outputs.join('\n---\n')}\n${node.output()}`;
        },
        120_000,
        200,
      );
      assert.deepEqual(receiver.unverified().map((r) => `${r.id}: ${r.verifyError}`), []);
      for (const r of receiver.requests) assert.ok(eventIds.has(r.id), `webhook-id ${r.id} is not a committed event (a write that rolled back was sent?)`);
      assert.deepEqual([...receiver.acceptedIds()].sort(), [...eventIds].sort(), 'after dedupe by webhook-id, exactly the committed events');

      // And the outbox agrees: one delivery per committed event, each delivered.
      const deliveries = await waitFor(
        async () => {
          const all = await allDeliveries(node.url, auth, endpoint.id);
          return all.length >= eventIds.size && all.every((d) => d.status === 'delivered') ? all : undefined;
        },
        () => 'deliveries not all delivered',
        60_000,
        200,
      );
      assert.deepEqual(deliveries.map((d) => d.eventId).sort(), [...eventIds].sort(), 'one delivery per committed event');
      // A recorded 2xx is final: no automatic attempt follows it (re-sends after a crash are attempts whose outcome was never recorded).
      let recorded = 0;
      for (const d of deliveries) {
        const attempts = await attemptsOf(node.url, auth, endpoint.id, d.id);
        recorded += attempts.length;
        const ok = attempts.findIndex((a) => a.statusCode !== null && a.statusCode < 300);
        assert.ok(ok >= 0, `${d.id}: delivered without a 2xx attempt: ${JSON.stringify(attempts)}`);
        assert.equal(ok, attempts.length - 1, `${d.id} was sent again after a recorded 2xx: ${JSON.stringify(attempts)}`);
      }
      const cutOff = receiver.requests.filter((r) => r.aborted).length;
      t.diagnostic(`${acknowledged} writes acknowledged, ${lost} cut off by kills, ${eventIds.size} events committed; ${receiver.requests.length} requests, ${cutOff} of them cut off by a kill, ${receiver.requests.length - eventIds.size} duplicates in all; ${recorded} attempts recorded`);
    } finally {
      await node.stop();
      await receiver.close();
    }
  });
}
