// Outbound webhooks over real sockets: a `restwell serve` child delivers to a node:http receiver that
// verifies every request with the `standardwebhooks` package; the receiver fails the first attempt
// at each event, so every delivery is retried, and the delivery log must show both attempts.
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
  getJson,
  json,
  outboundConfig,
  startNode,
  startReceiver,
  waitFor,
} from './outbound-support.js';

for (const engine of engines) {
  test(`a receiver that fails once then succeeds gets every event exactly once after dedupe, signed, with both attempts logged (${engine.name})`, { timeout: 120_000 }, async () => {
    // 500 to the first request of each webhook-id, 204 to the next ones.
    const receiver = await startReceiver({ reply: (_req, nth) => (nth === 1 ? 500 : 204) });
    const node = await startNode(engine.freshUrl(), outboundConfig());
    try {
      const auth = adminHeaders(node);
      const endpoint = await createEndpoint(node.url, auth, { url: receiver.url, eventTypes: ['items.*'], headers: { 'X-Tenant': 'acme' }, description: 'acceptance' });
      receiver.secret = endpoint.secret;
      // The secret is shown once: a read never carries it.
      const read = await getJson(node.url, `/webhook-endpoints/${endpoint.id}`, auth);
      assert.ok(!JSON.stringify(read).includes(endpoint.secret), 'GET /webhook-endpoints/{id} shows the secret in clear');

      // Five records and a change of one: six events.
      const ids: number[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await fetch(`${node.url}/items`, { method: 'POST', headers: json, body: JSON.stringify({ name: `item-${i}` }) });
        assert.equal(res.status, 201);
        ids.push(((await res.json()) as { id: number }).id);
      }
      const patched = await fetch(`${node.url}/items/${ids[0]}`, { method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json' }, body: JSON.stringify({ name: 'renamed' }) });
      assert.equal(patched.status, 200);

      const events = (await allEvents(node.url, auth)).filter((e) => e.type.startsWith('items.'));
      assert.equal(events.length, 6);
      const eventIds = new Set(events.map((e) => e.id as string));
      await waitFor(
        () => [...eventIds].every((id) => receiver.acceptedIds().has(id)),
        () => `not every event was accepted by the receiver; ${describeRequests(receiver)}\n--- server output:\n${node.output()}`,
        60_000,
      );

      assert.deepEqual(receiver.unverified().map((r) => `${r.id}: ${r.verifyError}`), [], 'every request verifies with the endpoint secret');
      // Every webhook-id is an event of the log, and after dedupe by webhook-id the receiver saw each event once.
      for (const r of receiver.requests) assert.ok(eventIds.has(r.id), `webhook-id ${r.id} is not an event of the log`);
      assert.deepEqual([...receiver.acceptedIds()].sort(), [...eventIds].sort());
      const byEvent = new Map(events.map((e) => [e.id as string, e]));
      for (const id of eventIds) {
        const seen = receiver.requests.filter((r) => r.id === id);
        // The first attempt was answered 500; it was retried (same webhook-id), and nothing came after the 2xx.
        assert.equal(seen[0]!.status, 500, `${id}: ${describeRequests(receiver)}`);
        assert.equal(seen.filter((r) => r.status === 204).length, 1, `${id} was accepted more than once: ${describeRequests(receiver)}`);
        assert.equal(seen.at(-1)!.status, 204, `${id} was sent again after a 2xx`);
        // The body is the event as GET /events/{id} serves it.
        const event = byEvent.get(id)!;
        for (const r of seen) {
          assert.equal(r.body, seen[0]!.body, 'every attempt sends the same body');
          assert.equal(r.event.id, id);
          assert.deepEqual({ type: r.event.type, resource: r.event.resource, recordId: r.event.recordId, createdAt: r.event.createdAt, data: r.event.data },
            { type: event.type, resource: event.resource, recordId: event.recordId, createdAt: event.createdAt, data: event.data });
          assert.equal(r.headers['x-tenant'], 'acme');
          assert.match(String(r.headers['content-type']), /^application\/json/);
          assert.match(String(r.headers['user-agent']), /^Restwell-Webhooks\//);
        }
      }

      // The delivery log: one delivery per event, delivered, its attempts the 500 then the 204.
      const deliveries = await waitFor(
        async () => {
          const all = await allDeliveries(node.url, auth, endpoint.id);
          return all.length === eventIds.size && all.every((d) => d.status === 'delivered') ? all : undefined;
        },
        () => `deliveries not all delivered`,
        30_000,
      );
      assert.deepEqual(deliveries.map((d) => d.eventId).sort(), [...eventIds].sort(), 'one delivery per event');
      for (const d of deliveries) {
        assert.match(d.id, /^msg_/);
        const one = await getJson(node.url, `/webhook-endpoints/${endpoint.id}/deliveries/${d.id}`, auth);
        assert.equal(one.status, 'delivered');
        assert.equal(one.lastStatusCode, 204);
        assert.equal(one.eventType, byEvent.get(one.eventId)!.type);
        assert.ok(one.attempts >= 2, `attempts: ${one.attempts}`);
        const attempts = await attemptsOf(node.url, auth, endpoint.id, d.id);
        assert.ok(attempts.length >= 2, JSON.stringify(attempts));
        assert.deepEqual(attempts.map((a) => a.number), attempts.map((_, i) => i + 1), 'attempts numbered 1, 2, …');
        const [first, last] = [attempts[0], attempts.at(-1)];
        assert.equal(first.statusCode, 500);
        assert.match(first.error, /500/);
        assert.equal(first.trigger, 'automatic');
        assert.equal(last.statusCode, 204);
        assert.equal(last.error, null);
        assert.equal(attempts.filter((a) => a.statusCode === 204).length, 1);
        assert.equal(typeof last.node, 'string');
      }

      // A redelivery by hand: one more signed request with the same webhook-id, logged as manual.
      const target = deliveries[0];
      const before = receiver.requests.filter((r) => r.id === target.eventId).length;
      const manual = await fetch(`${node.url}/webhook-endpoints/${endpoint.id}/deliveries/${target.id}/attempts`, { method: 'POST', headers: auth });
      const manualText = await manual.text();
      assert.equal(manual.status, 201, manualText);
      const attempt = JSON.parse(manualText);
      assert.equal(attempt.trigger, 'manual');
      assert.equal(attempt.statusCode, 204);
      const again = receiver.requests.filter((r) => r.id === target.eventId);
      assert.equal(again.length, before + 1);
      assert.equal(again.at(-1)!.verified, true);
    } finally {
      await node.stop();
      await receiver.close();
    }
  });
}
