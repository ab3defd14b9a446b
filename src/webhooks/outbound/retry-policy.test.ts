import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ClaimedDelivery } from '../../store/outbox.js';
import { automaticOutcome, manualOutcome, retryAt } from './retry-policy.js';
import type { SendResult } from './types.js';

const settings = { retryScheduleMs: [5_000, 300_000], disableAfterMs: 86_400_000 };
const now = new Date('2026-01-02T00:00:00.000Z');
const failed: SendResult = { ok: false, statusCode: 500, latencyMs: 3, responseExcerpt: null, error: 'HTTP 500', blocked: false };
const ok: SendResult = { ...failed, ok: true, statusCode: 204, error: null };

function claim(attempt: number, extra: { retryFrom?: number; failingSince?: string | null; status?: 'pending' | 'failed' | 'delivered' } = {}): ClaimedDelivery {
  return {
    attempt,
    leaseToken: 't',
    delivery: { retryFrom: extra.retryFrom ?? 0, status: extra.status ?? 'pending', nextAttemptAt: '2026-01-03T00:00:00.000Z' },
    endpoint: { failingSince: extra.failingSince ?? null },
  } as unknown as ClaimedDelivery;
}

test('retries follow the schedule with ±20% jitter, then stop', () => {
  assert.equal(retryAt(1, [1000], 0, () => 0)!.getTime(), 800);
  assert.equal(retryAt(1, [1000], 0, () => 1)!.getTime(), 1200);
  assert.equal(retryAt(2, [1000], 0), null);
});

test('a failure schedules the next retry of its run; a replay (retryFrom) starts the schedule again', () => {
  const first = automaticOutcome(claim(1), failed, settings, now);
  assert.equal(first.status, 'pending');
  const wait = Date.parse(first.nextAttemptAt!) - now.getTime();
  assert.ok(wait >= 4_000 && wait <= 6_000);
  assert.equal(automaticOutcome(claim(3), failed, settings, now).status, 'failed', 'given up after the last retry');
  assert.equal(automaticOutcome(claim(4, { retryFrom: 3 }), failed, settings, now).status, 'pending', 'a replayed delivery has its retries again');
  assert.deepEqual(first.endpoint, { failingSince: now.toISOString() });
});

test('410 Gone gives up at once and disables the endpoint', () => {
  const gone = automaticOutcome(claim(1), { ...failed, statusCode: 410 }, settings, now);
  assert.equal(gone.status, 'failed');
  assert.match(gone.endpoint!.disable!, /410 Gone/);
});

test('an endpoint failing for longer than disableAfter is disabled; a success clears the failing state', () => {
  const since = new Date(now.getTime() - settings.disableAfterMs).toISOString();
  assert.match(automaticOutcome(claim(1, { failingSince: since }), failed, settings, now).endpoint!.disable!, /disableAfter/);
  const recent = new Date(now.getTime() - 1000).toISOString();
  assert.equal(automaticOutcome(claim(1, { failingSince: recent }), failed, settings, now).endpoint!.disable, undefined);
  assert.deepEqual(automaticOutcome(claim(1, { failingSince: recent }), ok, settings, now), { status: 'delivered', nextAttemptAt: null, endpoint: { failingSince: null } });
  assert.equal(automaticOutcome(claim(1), ok, settings, now).endpoint, undefined, 'a healthy endpoint is not written');
});

test('a failed manual attempt leaves the delivery as it was and the endpoint alone', () => {
  assert.deepEqual(manualOutcome(claim(5, { status: 'failed' }), failed), { status: 'failed', nextAttemptAt: null });
  assert.deepEqual(manualOutcome(claim(2), failed), { status: 'pending', nextAttemptAt: '2026-01-03T00:00:00.000Z' });
  assert.equal(manualOutcome(claim(5, { status: 'failed' }), ok).status, 'delivered');
});
