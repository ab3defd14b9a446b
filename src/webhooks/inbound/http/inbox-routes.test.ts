import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Delivery } from '../../../store/inbox.js';
import { halDelivery } from './inbox-routes.js';

test('an attempt shows the records it created by path: made here from the id the store logged, or as an older version logged it', () => {
  const at = '2026-01-01T00:00:00.000Z';
  const delivery: Delivery = {
    seq: 1, id: 'whd_1', source: 'sms', eventId: 'e-1', receivedAt: at, headers: {}, contentType: 'text/plain', body: Buffer.from('hi'), verification: {},
    status: 'processed', attempts: 2, nextAttemptAt: null, lastError: null, response: { status: 200, contentType: 'text/plain', body: '' },
    attemptLog: [
      { number: 1, at, outcome: 'processed', error: null, result: { records: ['/messages/7'], events: [] } },
      { number: 2, at, outcome: 'processed', error: null, result: { records: [{ resource: 'messages', id: 8 }, { resource: 'notes', id: 'a b' }], events: ['evt_1'] } },
    ],
  };
  const log = halDelivery(delivery).attemptLog as Delivery['attemptLog'];
  assert.deepEqual(log.map((a) => a.result?.records), [['/messages/7'], ['/messages/8', '/notes/a%20b']]);
  assert.deepEqual(log[1]!.result!.events, ['evt_1']);
});
