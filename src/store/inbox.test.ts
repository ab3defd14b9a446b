import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { engines } from '../test-support/engines.js';
import { newDeliveryId, type NewDelivery } from './inbox.js';
import { openStore } from './open.js';

function delivery(eventId: string, over: Partial<NewDelivery> = {}): NewDelivery {
  const at = new Date().toISOString();
  return {
    id: newDeliveryId(), source: 'hooks', eventId, receivedAt: at, headers: { 'webhook-id': eventId }, contentType: 'application/json', body: Buffer.from(`{"id":"${eventId}"}`),
    verification: { scheme: 'standard-webhooks' }, status: 'processed', nextAttemptAt: null, lastError: null, response: { status: 200, contentType: 'application/json', body: '{}' }, ...over,
  };
}

for (const engine of engines) {
  describe(`inbox receive (${engine.name})`, () => {
    test('stores each delivery as given, whatever its values, and answers a redelivery with the first', async () => {
      const store = await openStore(engine.freshUrl());
      try {
        await store.sync([], { allowDestructive: false });
        const later = new Date(Date.now() + 60_000).toISOString();
        const given = [
          delivery('e-1'),
          delivery('e-2', { status: 'received', nextAttemptAt: later }),
          delivery('e-3', { status: 'failed', lastError: 'unreadable', body: Buffer.from([0, 255, 1]), response: { status: 422, contentType: 'application/problem+json', body: '{"status":422}' } }),
        ];
        // Received in one turn, as concurrent deliveries are: each is its own row.
        const stored = await Promise.all(given.map((d) => store.inbox.receive(d)));
        assert.deepEqual(stored.map((s) => s.created), [true, true, true]);
        assert.equal(new Set(stored.map((s) => s.delivery.seq)).size, 3);
        for (const [i, d] of given.entries()) {
          const expected = { ...d, seq: stored[i]!.delivery.seq, attempts: 0, attemptLog: [] };
          assert.deepEqual(stored[i]!.delivery, expected);
          assert.deepEqual(await store.inbox.get('hooks', d.id), expected);
        }
        const again = await store.inbox.receive(delivery('e-2', { status: 'processed' }));
        assert.equal(again.created, false);
        assert.equal(again.delivery.id, given[1]!.id);
        assert.equal(again.delivery.status, 'received');
      } finally {
        await store.close();
      }
    });
  });
}
