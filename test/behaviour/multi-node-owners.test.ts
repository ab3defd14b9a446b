// Subscribers' endpoints (`webhooks:own`) served by two `restwell serve` nodes on one PostgreSQL
// schema: each subscriber's endpoint receives exactly its own records' events whichever node the
// records were written on and whichever node derives and sends them, and a key revoked by the CLI
// (another process) disables its owner's endpoint, as both nodes then show.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { engines } from '../../src/test-support/engines.js';
import { adminHeaders, allDeliveries, allEvents, createEndpoint, describeRequests, FAST_OUTBOUND, getJson, json, startNode, startReceiver, waitFor } from '../wire/outbound-support.js';
import { apiKeyHeaders, configFile, ROOT } from '../support-process.js';

const postgres = engines.find((e) => e.name === 'postgres');

const CONFIG = {
  resources: { notes: { fields: { text: { type: 'string', required: true } }, access: { read: 'owner', write: 'owner' } } },
  auth: { rateLimit: false },
  webhooks: { outbound: FAST_OUTBOUND },
  events: { stream: { credentialCheck: '200ms' } },
};

describe('subscribers\' endpoints on two nodes sharing one PostgreSQL database', { skip: postgres ? false : 'TEST_DATABASE_URL is not set (multi-node needs PostgreSQL)' }, () => {
  test('each receives exactly its own records\' events; a revoked key disables its endpoint on both nodes', { timeout: 180_000 }, async () => {
    const receivers = { alice: await startReceiver(), bob: await startReceiver(), admin: await startReceiver() };
    const db = postgres!.freshUrl();
    const config = configFile(CONFIG);
    const nodes = await Promise.all([startNode(db, config), startNode(db, config)]);
    try {
      const admin = adminHeaders(nodes[0]);
      const alice = apiKeyHeaders(nodes[0].args, 'webhooks:own');
      const bob = apiKeyHeaders(nodes[1].args, 'webhooks:own');
      // Each subscriber makes its endpoint on a different node; the operator's receives everything.
      const endpoints = {
        alice: await createEndpoint(nodes[0].url, alice, { url: receivers.alice.url }),
        bob: await createEndpoint(nodes[1].url, bob, { url: receivers.bob.url }),
        admin: await createEndpoint(nodes[0].url, admin, { url: receivers.admin.url }),
      };
      for (const who of ['alice', 'bob', 'admin'] as const) receivers[who].secret = endpoints[who].secret;

      // Each writes notes on both nodes, interleaved.
      const written = { alice: new Set<string>(), bob: new Set<string>() };
      const write = async (node: number, who: 'alice' | 'bob', text: string) => {
        const res = await fetch(`${nodes[node]!.url}/notes`, { method: 'POST', headers: { ...json, ...(who === 'alice' ? alice : bob) }, body: JSON.stringify({ text }) });
        const body = await res.text();
        assert.equal(res.status, 201, body);
        written[who].add(String(JSON.parse(body).id));
      };
      await Promise.all(Array.from({ length: 6 }, (_, i) => write(i % 2, i % 3 === 0 ? 'bob' : 'alice', `note ${i}`)));
      const events = await allEvents(nodes[1].url, admin);
      assert.equal(events.length, 6);
      const expected = {
        alice: new Set(events.filter((e) => written.alice.has(String(e.recordId))).map((e) => e.id as string)),
        bob: new Set(events.filter((e) => written.bob.has(String(e.recordId))).map((e) => e.id as string)),
        admin: new Set(events.map((e) => e.id as string)),
      };
      assert.equal(expected.alice.size + expected.bob.size, 6, 'every note is one subscriber\'s');

      for (const who of ['admin', 'alice', 'bob'] as const) {
        await waitFor(
          () => [...expected[who]].every((id) => receivers[who].acceptedIds().has(id)),
          () => `${who}: not all delivered: ${describeRequests(receivers[who])}\n--- node 0:\n${nodes[0].output()}\n--- node 1:\n${nodes[1].output()}`,
          90_000,
          200,
        );
      }
      for (const who of ['alice', 'bob'] as const) {
        assert.deepEqual([...receivers[who].acceptedIds()].sort(), [...expected[who]].sort(), `${who} received exactly its own records' events`);
        assert.deepEqual(receivers[who].unverified(), []);
        const deliveries = await allDeliveries(nodes[who === 'alice' ? 1 : 0].url, admin, endpoints[who].id);
        assert.deepEqual(deliveries.map((d) => d.eventId).sort(), [...expected[who]].sort(), `${who}'s endpoint has a delivery for exactly its events`);
      }

      // Each node shows a subscriber only its own endpoint.
      for (const node of nodes) {
        const listed = await getJson(node.url, '/webhook-endpoints', alice);
        assert.deepEqual(listed._embedded['webhook-endpoints'].map((e: { id: string }) => e.id), [endpoints.alice.id]);
        const other = await fetch(`${node.url}/webhook-endpoints/${endpoints.bob.id}`, { headers: alice });
        assert.equal(other.status, 404);
      }

      // Bob's key revoked by the CLI, in a process of its own: both nodes' checks notice it.
      const keyId = String((await getJson(nodes[0].url, '/me', bob)).subject).replace(/^key:/, '');
      execFileSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'keys', 'revoke', keyId, ...nodes[0].args], { cwd: ROOT, encoding: 'utf8', stdio: 'pipe' });
      for (const node of nodes) {
        const shown = await waitFor(
          async () => {
            const ep = await getJson(node.url, `/webhook-endpoints/${endpoints.bob.id}`, admin);
            return ep.enabled === false ? ep : undefined;
          },
          () => `bob's endpoint is still enabled\n--- node 0:\n${nodes[0].output()}\n--- node 1:\n${nodes[1].output()}`,
          30_000,
          100,
        );
        assert.match(shown.disabledReason, /API key of its owner was revoked/);
      }
      assert.equal((await getJson(nodes[1].url, `/webhook-endpoints/${endpoints.alice.id}`, admin)).enabled, true);
    } finally {
      await Promise.all(nodes.map((n) => n.stop()));
      await Promise.all(Object.values(receivers).map((r) => r.close()));
    }
  });
});
