import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { defineResources } from '../core/resource.js';
import { engines } from '../test-support/engines.js';
import { newDeliveryId } from './inbox.js';
import { openStore } from './open.js';

const [messages] = defineResources({ resources: { messages: { fields: { text: { type: 'string' } } } } });

for (const engine of engines) {
  describe(`inbox settle (${engine.name})`, () => {
    test('an attempt logs the records its actions created by resource and id, never by URL, with its events, once', async () => {
      const store = await openStore(engine.freshUrl());
      try {
        await store.sync([messages], { allowDestructive: false });
        const at = new Date().toISOString();
        const { delivery } = await store.inbox.receive({
          id: newDeliveryId(), source: 'sms', eventId: 'e-1', receivedAt: at, headers: {}, contentType: 'text/plain', body: Buffer.from('hi'),
          verification: {}, status: 'received', nextAttemptAt: at, lastError: null, response: { status: 200, contentType: 'text/plain', body: '' },
        });
        const effects = { records: [{ resource: messages, data: { text: 'hi' } }], events: [{ type: 'sms.received', resource: 'messages', recordId: '1', data: {} }] };
        const settled = await store.inbox.settle(delivery.id, { status: 'processed', nextAttemptAt: null, error: null, effects, expectedAttempts: 0 }, at);
        const [record] = (await store.list(messages, { filters: [], sort: [], limit: 10 })).records;
        assert.deepEqual(settled?.attemptLog[0]?.result?.records, [{ resource: 'messages', id: record!.id }]);
        assert.match(String(settled?.attemptLog[0]?.result?.events[0]), /^evt_/);
        assert.deepEqual((await store.inbox.get('sms', delivery.id))?.attemptLog, settled?.attemptLog);
        // Another worker's settle of the same attempt changes nothing.
        assert.equal(await store.inbox.settle(delivery.id, { status: 'processed', nextAttemptAt: null, error: null, effects, expectedAttempts: 0 }, at), undefined);
        assert.equal((await store.list(messages, { filters: [], sort: [], limit: 10 })).records.length, 1);
      } finally {
        await store.close();
      }
    });
  });
}
