import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { defineResources } from '../../src/core/resource.js';
import { openStore } from '../../src/store/open.js';
import { eventsChannel } from '../../src/store/postgres/postgres-listener.js';
import type { AttemptRecord, EndpointInput, Lease, Outbox } from '../../src/store/outbox.js';
import type { Store } from '../../src/store/store.js';
import { engines } from '../../src/test-support/engines.js';

const resources = defineResources({ resources: { people: { fields: { name: { type: 'string', unique: true } } }, pets: { fields: { name: { type: 'string' } } } } });
const [people, pets] = resources as [(typeof resources)[0], (typeof resources)[0]];

function endpoint(over: Partial<EndpointInput> = {}): EndpointInput {
  return { url: 'https://example.com/hook', description: null, eventTypes: null, enabled: true, headers: {}, rateLimit: null, sealedSecrets: 'sealed', ...over };
}

/** A lease taken at `now` (default: the current time) for `ms`. */
function lease(node = 'n1', now = new Date(), ms = 30_000): Lease {
  return { node, token: randomUUID(), now: now.toISOString(), until: new Date(now.getTime() + ms).toISOString() };
}

const later = (ms: number) => new Date(Date.now() + ms);

function outcome(number: number, status: AttemptRecord['status'], extra: Partial<AttemptRecord> = {}): AttemptRecord {
  const ok = status === 'delivered';
  return {
    attempt: { number, trigger: 'automatic', startedAt: new Date().toISOString(), statusCode: ok ? 200 : 500, latencyMs: 12, responseExcerpt: ok ? 'ok' : 'bad\u0000', error: ok ? null : 'HTTP 500', node: 'n1' },
    status,
    nextAttemptAt: status === 'pending' ? later(60_000).toISOString() : null,
    ...extra,
  };
}

/** Derives until the log is exhausted; the number of deliveries created. */
async function deriveAll(outbox: Outbox, limit = 100): Promise<number> {
  let total = 0;
  for (;;) {
    const { derived, more } = await outbox.deriveDeliveries(limit);
    total += derived;
    if (!more) return total;
  }
}

async function allDeliveries(outbox: Outbox, endpointId: string) {
  return outbox.listDeliveries(endpointId, { limit: 10_000 });
}

async function fresh(url: string): Promise<Store> {
  const store = await openStore(url);
  await store.sync(resources, { allowDestructive: false });
  return store;
}

for (const engine of engines) {
  describe(`outbox store (${engine.name})`, () => {
    let store: Store;
    let outbox: Outbox;
    before(async () => {
      store = await fresh(engine.freshUrl());
      outbox = store.outbox;
    });
    after(() => store.close());

    test('endpoints: create, list, get; only a user change bumps the version; a NUL id is simply not found', async () => {
      const a = await outbox.createEndpoint(endpoint({ description: 'first', headers: { 'x-a': '1' }, rateLimit: { limit: 5, windowMs: 1000 } }), 'alice');
      const b = await outbox.createEndpoint(endpoint({ eventTypes: ['people.*'] }), null);
      assert.match(a.id, /^ep_[0-9a-f]{32}$/);
      assert.equal(a.version, 1);
      assert.equal(a.owner, 'alice');
      assert.deepEqual(await outbox.getEndpoint(a.id), a);
      assert.deepEqual((await outbox.getEndpoint(b.id))?.eventTypes, ['people.*']);
      const listed = await outbox.listEndpoints({ limit: 100 });
      assert.deepEqual(listed.filter((e) => e.id === a.id || e.id === b.id).map((e) => e.id), [a.id, b.id]);
      assert.deepEqual((await outbox.listEndpoints({ after: a.id, limit: 100 })).map((e) => e.id).includes(a.id), false);
      assert.equal(await outbox.getEndpoint('ep_\u0000'), undefined);
      assert.deepEqual((await outbox.listEndpoints({ after: `${a.id}\u0000`, limit: 10 })).map((e) => e.id), [b.id], 'after a forged cursor as after any other text');
      assert.equal((await outbox.updateEndpoint('ep_\u0000', () => ({ keep: true }))).outcome, 'unchanged');

      const same = await outbox.updateEndpoint(a.id, (cur) => ({ put: { ...cur!, headers: { 'x-a': '1' } } }));
      assert.equal(same.outcome, 'unchanged');
      const changed = await outbox.updateEndpoint(a.id, (cur) => ({ put: { ...cur!, url: 'https://example.com/other' } }));
      assert.equal(changed.outcome, 'updated');
      assert.equal(changed.endpoint?.version, 2);
      assert.equal(changed.endpoint?.url, 'https://example.com/other');
      assert.equal((await outbox.updateEndpoint(a.id, () => ({ keep: true }))).outcome, 'unchanged');
      assert.equal((await outbox.updateEndpoint('ep_none', (cur) => (cur ? { delete: true } : { keep: true }))).outcome, 'unchanged');
      await assert.rejects(outbox.updateEndpoint(a.id, () => {
        throw new Error('refused by the decider');
      }), /refused by the decider/);
      assert.equal((await outbox.getEndpoint(a.id))?.version, 2);
      await outbox.updateEndpoint(a.id, () => ({ delete: true }));
      await outbox.updateEndpoint(b.id, () => ({ delete: true }));
    });

    test('derive: one delivery per subscribed (endpoint, event), only events after the endpoint was created, none twice', async () => {
      await store.insert(people, { name: 'before' });
      const all = await outbox.createEndpoint(endpoint(), null);
      const ppl = await outbox.createEndpoint(endpoint({ eventTypes: ['people.*'] }), null);
      const petCreated = await outbox.createEndpoint(endpoint({ eventTypes: ['pets.created'] }), null);
      const p = await store.insert(people, { name: 'derive-1' });
      await store.insert(pets, { name: 'Rex' });
      await store.mutate(people, p.id, (cur) => ({ put: { ...cur!.data, name: 'derive-2' } }));
      await deriveAll(outbox);
      assert.equal(await deriveAll(outbox), 0, 'a second pass finds nothing new');
      const types = async (id: string) => (await allDeliveries(outbox, id)).map((d) => d.eventType);
      assert.deepEqual(await types(all.id), ['people.created', 'pets.created', 'people.updated']);
      assert.deepEqual(await types(ppl.id), ['people.created', 'people.updated']);
      assert.deepEqual(await types(petCreated.id), ['pets.created']);
      const [first] = await allDeliveries(outbox, all.id);
      assert.match(first!.id, /^msg_[0-9a-f]{32}$/);
      assert.equal(first!.status, 'pending');
      assert.equal(first!.attempts, 0);
      assert.deepEqual(await outbox.getDelivery(all.id, first!.id), first);
      assert.equal(await outbox.getDelivery(ppl.id, first!.id), undefined, 'a delivery is found under its own endpoint only');
      assert.equal(await outbox.getDelivery(all.id, 'msg_\u0000'), undefined);
      assert.deepEqual(await outbox.listDeliveries(all.id, { limit: 10, eventType: 'pets.created' }).then((l) => l.map((d) => d.eventType)), ['pets.created']);
      assert.deepEqual(await outbox.listDeliveries(all.id, { limit: 10, eventType: 'x\u0000' }), []);
      assert.deepEqual(await outbox.listDeliveries(all.id, { limit: 10, after: first!.seq }).then((l) => l.length), 2);
      assert.deepEqual(await outbox.listDeliveries(all.id, { limit: 10, status: 'delivered' }), []);
      for (const e of [all, ppl, petCreated]) await outbox.updateEndpoint(e.id, () => ({ delete: true }));
    });

    test('a paused endpoint gets nothing, then resumes where it stopped; a rolled-back write derives nothing', async () => {
      const e = await outbox.createEndpoint(endpoint({ eventTypes: ['people.created'] }), null);
      await store.insert(people, { name: 'pause-1' });
      await deriveAll(outbox);
      await outbox.updateEndpoint(e.id, (cur) => ({ put: { ...cur!, enabled: false } }));
      await store.insert(people, { name: 'pause-2' });
      await assert.rejects(store.insert(people, { name: 'pause-2' }), 'a unique violation rolls back, event and all');
      await deriveAll(outbox);
      assert.equal((await allDeliveries(outbox, e.id)).length, 1);
      await outbox.updateEndpoint(e.id, (cur) => ({ put: { ...cur!, enabled: true } }));
      await deriveAll(outbox);
      const names = (await allDeliveries(outbox, e.id)).map((d) => d.eventSeq);
      assert.equal(names.length, 2, 'the event written while paused is delivered once enabled, the rolled-back one never');
      await outbox.updateEndpoint(e.id, () => ({ delete: true }));
    });

    test('derive pages through the log by `limit` and says when there is more', async () => {
      const e = await outbox.createEndpoint(endpoint({ eventTypes: ['pets.*'] }), null);
      for (let i = 0; i < 5; i++) await store.insert(pets, { name: `page-${i}` });
      const first = await outbox.deriveDeliveries(2);
      assert.equal(first.derived, 2);
      assert.equal(first.more, true);
      assert.equal(await deriveAll(outbox, 2), 3);
      assert.equal((await allDeliveries(outbox, e.id)).length, 5);
      await outbox.updateEndpoint(e.id, () => ({ delete: true }));
    });

    test('derive with a lease hands the new deliveries over claimed; claims, expiry, stale tokens, release and health', async () => {
      const e = await outbox.createEndpoint(endpoint({ eventTypes: ['people.created'] }), null);
      await store.insert(people, { name: 'claim-1' });
      await store.insert(people, { name: 'claim-2' });
      const l1 = lease('n1');
      const { claimed, derived } = await outbox.deriveDeliveries(100, l1);
      assert.equal(derived, 2);
      assert.equal(claimed.length, 2);
      const [c1, c2] = claimed as [(typeof claimed)[0], (typeof claimed)[0]];
      assert.equal(c1.endpoint.id, e.id);
      assert.equal(c1.event.type, 'people.created');
      assert.equal(c1.event.data.name, 'claim-1');
      assert.equal(c1.event.id, c1.delivery.eventId);
      assert.equal(c1.attempt, 1);
      assert.equal(c1.delivery.attempts, 1);
      assert.equal(c1.leaseToken, l1.token);
      assert.deepEqual(await outbox.claimDue(10, lease('n2')), [], 'leased deliveries are not due');
      assert.equal(await outbox.claimDelivery(e.id, c1.delivery.id, lease('n2')), undefined, 'nor can they be claimed by hand');

      // The first succeeds; the second fails and is retried later; the endpoint's health follows, its version does not.
      const failingSince = new Date().toISOString();
      assert.equal(await outbox.recordAttempt(c1.delivery.id, l1.token, outcome(1, 'delivered', { endpoint: { failingSince: null } })), true);
      assert.equal(await outbox.recordAttempt(c2.delivery.id, l1.token, outcome(1, 'pending', { endpoint: { failingSince } })), true);
      const d1 = await outbox.getDelivery(e.id, c1.delivery.id);
      assert.equal(d1?.status, 'delivered');
      assert.ok(d1?.deliveredAt);
      assert.equal(d1?.lastStatusCode, 200);
      const d2 = await outbox.getDelivery(e.id, c2.delivery.id);
      assert.equal(d2?.status, 'pending');
      assert.equal(d2?.lastError, 'HTTP 500');
      const [attempt] = await outbox.listAttempts(c2.delivery.id);
      assert.equal(attempt?.responseExcerpt, 'bad\\u0000', 'a NUL in a response is kept as text every engine can store');
      assert.equal(attempt?.number, 1);
      let ep = await outbox.getEndpoint(e.id);
      assert.equal(ep?.failingSince, failingSince);
      assert.equal(ep?.version, 1);
      assert.equal(await outbox.recordAttempt(c1.delivery.id, 'another', outcome(2, 'pending', { endpoint: { failingSince: new Date(1).toISOString() } })), false);
      assert.equal((await outbox.getEndpoint(e.id))?.failingSince, failingSince, 'a stale attempt changes no health');

      // Not due yet; due later; a lease that ran out (its node died) makes it claimable again.
      assert.deepEqual(await outbox.claimDue(10, lease('n2')), []);
      const l2 = lease('n2', later(120_000), 1000);
      const [again] = await outbox.claimDue(10, l2);
      assert.equal(again?.delivery.id, c2.delivery.id);
      assert.equal(again?.attempt, 2);
      assert.deepEqual(await outbox.claimDue(10, lease('n3', later(120_500))), [], 'an unexpired lease holds');
      const l3 = lease('n3', later(122_000));
      const [taken] = await outbox.claimDue(10, l3);
      assert.equal(taken?.attempt, 3);
      // n2 answers late: its attempt is kept, the delivery stays n3's.
      assert.equal(await outbox.recordAttempt(c2.delivery.id, l2.token, outcome(2, 'failed')), false);
      assert.deepEqual((await outbox.listAttempts(c2.delivery.id)).map((a) => a.number), [1, 2]);
      assert.equal((await outbox.getDelivery(e.id, c2.delivery.id))?.status, 'pending');

      // A release gives the claim back uncounted.
      await outbox.release(c2.delivery.id, 'not-the-token', later(0).toISOString());
      assert.equal((await outbox.getDelivery(e.id, c2.delivery.id))?.attempts, 3, 'only the lease holder releases');
      await outbox.release(c2.delivery.id, l3.token, later(0).toISOString());
      const released = await outbox.getDelivery(e.id, c2.delivery.id);
      assert.equal(released?.attempts, 2);
      const [reclaimed] = await outbox.claimDue(10, lease('n1', later(1000)));
      assert.equal(reclaimed?.attempt, 3);
      // An attempt whose number is taken already (here 2) is kept under the next free one.
      assert.equal(await outbox.recordAttempt(c2.delivery.id, reclaimed!.leaseToken, outcome(2, 'failed', { endpoint: { disable: 'failing for too long' } })), true);
      assert.deepEqual((await outbox.listAttempts(c2.delivery.id)).map((a) => a.number), [1, 2, 3]);
      ep = await outbox.getEndpoint(e.id);
      assert.equal(ep?.enabled, false);
      assert.equal(ep?.disabledReason, 'failing for too long');
      assert.equal(ep?.version, 1, 'the dispatcher disabling it is not a user change');

      // A manual attempt claims whatever the status; enabling by a user clears the reason.
      const manual = await outbox.claimDelivery(e.id, c1.delivery.id, lease('n1'));
      assert.equal(manual?.attempt, 2);
      assert.equal(manual?.delivery.status, 'delivered');
      assert.equal(await outbox.claimDelivery(e.id, 'msg_\u0000', lease('n1')), undefined);
      assert.equal(await outbox.claimDelivery('ep_other', c1.delivery.id, lease('n1')), undefined);
      const enabled = await outbox.updateEndpoint(e.id, (cur) => ({ put: { ...cur!, enabled: true } }));
      assert.equal(enabled.endpoint?.disabledReason, null);
      assert.equal(enabled.endpoint?.version, 2);
      await outbox.updateEndpoint(e.id, () => ({ delete: true }));
    });

    test('a disabled endpoint has nothing claimed; deleting an endpoint deletes its deliveries and attempts', async () => {
      const e = await outbox.createEndpoint(endpoint({ eventTypes: ['pets.updated'] }), null);
      const pet = await store.insert(pets, { name: 'gone' });
      await store.mutate(pets, pet.id, (cur) => ({ put: { ...cur!.data, name: 'gone-2' } }));
      await deriveAll(outbox);
      const [d] = await allDeliveries(outbox, e.id);
      await outbox.updateEndpoint(e.id, (cur) => ({ put: { ...cur!, enabled: false } }));
      assert.deepEqual(await outbox.claimDue(10, lease()), []);
      const manual = await outbox.claimDelivery(e.id, d!.id, lease());
      await outbox.recordAttempt(d!.id, manual!.leaseToken, outcome(1, 'delivered'));
      assert.equal((await outbox.listAttempts(d!.id)).length, 1);
      assert.equal((await outbox.updateEndpoint(e.id, () => ({ delete: true }))).outcome, 'deleted');
      assert.equal(await outbox.getDelivery(e.id, d!.id), undefined);
      assert.deepEqual(await outbox.listAttempts(d!.id), []);
      assert.equal(await outbox.recordAttempt(d!.id, manual!.leaseToken, outcome(2, 'delivered')), false);
    });

    test('attempts recorded in a batch: each as on its own (lease held, lease lost, endpoint health, a taken number); the backlog per endpoint', async () => {
      const e = await outbox.createEndpoint(endpoint({ eventTypes: ['people.updated'] }), null);
      const quiet = await outbox.createEndpoint(endpoint({ eventTypes: ['nothing.ever'] }), null);
      for (const name of ['batch-1', 'batch-2', 'batch-3', 'batch-4', 'batch-5']) {
        const p = await store.insert(people, { name });
        await store.mutate(people, p.id, (cur) => ({ put: { ...cur!.data, name: `${name}-b` } }));
      }
      const l = lease('n1');
      const { claimed } = await outbox.deriveDeliveries(100, l);
      assert.equal(claimed.length, 5);
      const [ok1, ok2, stale, failing, numbered] = claimed as [(typeof claimed)[0], (typeof claimed)[0], (typeof claimed)[0], (typeof claimed)[0], (typeof claimed)[0]];
      // An attempt under number 1 exists already for `numbered` (a lease given back and claimed again reuses a number).
      await outbox.recordAttempt(numbered.delivery.id, 'not-the-token', outcome(1, 'pending'));
      const settled = await outbox.recordAttempts([
        { deliveryId: ok1.delivery.id, leaseToken: l.token, record: outcome(1, 'delivered') },
        { deliveryId: ok2.delivery.id, leaseToken: l.token, record: outcome(1, 'delivered') },
        { deliveryId: stale.delivery.id, leaseToken: 'a-lease-that-ran-out', record: outcome(1, 'delivered') },
        { deliveryId: failing.delivery.id, leaseToken: l.token, record: outcome(1, 'pending', { endpoint: { failingSince: '2026-01-01T00:00:00.000Z' } }) },
        { deliveryId: numbered.delivery.id, leaseToken: l.token, record: outcome(1, 'delivered') },
      ]);
      assert.deepEqual(settled.map((r) => (r.status === 'fulfilled' ? r.value : r.reason)), [true, true, false, true, true]);
      const byId = new Map((await allDeliveries(outbox, e.id)).map((d) => [d.id, d]));
      for (const c of [ok1, ok2, numbered]) {
        const d = byId.get(c.delivery.id)!;
        assert.equal(d.status, 'delivered');
        assert.equal(d.lastStatusCode, 200);
        assert.ok(d.deliveredAt);
      }
      assert.equal(byId.get(stale.delivery.id)!.status, 'pending', 'a lease that ran out changes nothing');
      assert.equal(byId.get(stale.delivery.id)!.lastStatusCode, null);
      assert.deepEqual((await outbox.listAttempts(stale.delivery.id)).map((a) => a.number), [1], 'but its attempt is kept');
      assert.equal(byId.get(failing.delivery.id)!.lastError, 'HTTP 500');
      assert.equal((await outbox.getEndpoint(e.id))!.failingSince, '2026-01-01T00:00:00.000Z', 'an outcome with endpoint health goes the one-at-a-time way');
      assert.deepEqual((await outbox.listAttempts(numbered.delivery.id)).map((a) => [a.number, a.statusCode]), [[1, 500], [2, 200]], 'a taken number moves to the next free one');
      assert.deepEqual((await outbox.listAttempts(ok1.delivery.id)).map((a) => [a.number, a.responseExcerpt]), [[1, 'ok']]);

      const backlog = new Map((await outbox.backlog()).map((b) => [b.endpointId, b]));
      // Pending: `stale` (still leased to n1) and `failing` (waiting for its retry).
      assert.equal(backlog.get(e.id)!.pending, 2);
      assert.equal(backlog.get(e.id)!.oldestCreatedAt, [stale, failing].map((c) => c.delivery.createdAt).sort()[0]);
      assert.deepEqual(backlog.get(quiet.id), { endpointId: quiet.id, pending: 0, oldestCreatedAt: null });
      await outbox.updateEndpoint(e.id, () => ({ delete: true }));
      await outbox.updateEndpoint(quiet.id, () => ({ delete: true }));
      assert.equal((await outbox.backlog()).some((b) => b.endpointId === e.id), false, 'a deleted endpoint has no series left');
    });

    test('replay: failed only, everything since, and events from before the endpoint existed', async () => {
      await store.insert(pets, { name: 'old-1' });
      await store.insert(pets, { name: 'old-2' });
      const since = new Date(Date.now() - 60_000).toISOString();
      const e = await outbox.createEndpoint(endpoint({ eventTypes: ['pets.created'] }), null);
      await store.insert(pets, { name: 'new-1' });
      await store.insert(pets, { name: 'new-2' });
      const { claimed } = await outbox.deriveDeliveries(100, lease());
      assert.equal(claimed.length, 2);
      await outbox.recordAttempt(claimed[0]!.delivery.id, claimed[0]!.leaseToken, outcome(1, 'delivered'));
      await outbox.recordAttempt(claimed[1]!.delivery.id, claimed[1]!.leaseToken, outcome(1, 'failed'));

      const now = new Date().toISOString();
      assert.equal(await outbox.replay(e.id, since, { failedOnly: true, now }), 1);
      const failed = await outbox.getDelivery(e.id, claimed[1]!.delivery.id);
      assert.equal(failed?.status, 'pending');
      assert.equal(failed?.retryFrom, 1);
      assert.equal(failed?.nextAttemptAt, now);
      assert.equal(await deriveAll(outbox), 0, 'failed only derives nothing new');
      assert.equal(await outbox.replay(e.id, '9999-01-01T00:00:00.000Z', { failedOnly: false, now }), 0);
      assert.equal(await outbox.replay('ep_none', since, { failedOnly: false, now }), 0);

      assert.equal(await outbox.replay(e.id, since, { failedOnly: false, now }), 2);
      assert.equal((await outbox.getDelivery(e.id, claimed[0]!.delivery.id))?.status, 'pending');
      await deriveAll(outbox);
      const seqs = (await allDeliveries(outbox, e.id)).map((d) => d.eventSeq).sort((x, y) => x - y);
      const expected = (await store.listEvents({ limit: 10_000, types: ['pets.created'] })).filter((ev) => ev.createdAt >= since).map((ev) => ev.seq);
      assert.ok(expected.length >= 4);
      assert.deepEqual(seqs, expected, 'the events from before the endpoint existed are derived; the two it had stay single');
      assert.equal((await outbox.getEndpoint(e.id))?.version, 1);
      await outbox.updateEndpoint(e.id, () => ({ delete: true }));
    });
  });
}

const postgres = engines.find((e) => e.name === 'postgres');

describe('outbox on two nodes sharing PostgreSQL', { skip: postgres ? false : 'TEST_DATABASE_URL is not set' }, () => {
  let a: Store;
  let b: Store;
  let url: string;
  before(async () => {
    url = postgres!.freshUrl();
    a = await fresh(url);
    b = await openStore(url);
  });
  after(() => Promise.all([a.close(), b.close()]));

  test('deriving concurrently on both never creates a delivery twice, and misses none', async () => {
    const endpoints = await Promise.all([a.outbox.createEndpoint(endpoint(), null), b.outbox.createEndpoint(endpoint({ eventTypes: ['people.*'] }), null), a.outbox.createEndpoint(endpoint({ eventTypes: ['pets.*'] }), null)]);
    const writes: Promise<unknown>[] = [];
    const derives: Promise<unknown>[] = [];
    for (let i = 0; i < 60; i++) {
      const node = i % 2 ? a : b;
      writes.push(node.insert(i % 3 ? people : pets, { name: `race-${i}` }));
      derives.push(node.outbox.deriveDeliveries(7), node.outbox.deriveDeliveries(7, lease(`n${i % 2}`)));
    }
    await Promise.all([...writes, ...derives]);
    await Promise.all([deriveAll(a.outbox, 7), deriveAll(b.outbox, 7)]);
    await deriveAll(a.outbox);
    const [all, ppl, pts] = await Promise.all(endpoints.map((e) => allDeliveries(a.outbox, e.id)));
    assert.equal(all!.length, 60);
    assert.equal(ppl!.length, 40);
    assert.equal(pts!.length, 20);
    for (const list of [all!, ppl!, pts!]) assert.equal(new Set(list.map((d) => d.eventSeq)).size, list.length);
    for (const e of endpoints) await a.outbox.updateEndpoint(e.id, () => ({ delete: true }));
  });

  test('claiming concurrently on both never hands one delivery out twice', async () => {
    const e = await a.outbox.createEndpoint(endpoint({ eventTypes: ['pets.created'] }), null);
    await Promise.all(Array.from({ length: 150 }, (_, i) => a.insert(pets, { name: `claim-${i}` })));
    assert.equal(await deriveAll(a.outbox), 150);
    const claimLoop = async (store: Store, node: string) => {
      const got: string[] = [];
      for (;;) {
        const batch = await store.outbox.claimDue(4, lease(node));
        if (!batch.length) return got;
        got.push(...batch.map((c) => c.delivery.id));
      }
    };
    const results = await Promise.all([claimLoop(a, 'a1'), claimLoop(a, 'a2'), claimLoop(b, 'b1'), claimLoop(b, 'b2')]);
    const ids = results.flat();
    assert.equal(new Set(ids).size, ids.length, 'no delivery was claimed twice');
    assert.equal(ids.length, 150);
    await a.outbox.updateEndpoint(e.id, () => ({ delete: true }));
  });

  /** Writes on `a` until `b` hears of one (the listener connects lazily; the test's timeout bounds a failure). */
  async function wakesB(): Promise<void> {
    let heard = false;
    const stop = b.onEventsAppended(() => (heard = true));
    try {
      for (let i = 0; !heard; i++) {
        await a.insert(pets, { name: `wake-${i}` });
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      stop();
    }
  }

  test('an event appended on one node wakes the other node’s listeners, also after its listening connection was dropped', async () => {
    await wakesB();
    const { default: pg } = await import('pg');
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    try {
      // Only this schema's listener (other test files share the database).
      const [{ k }] = (await admin.query('SELECT hashtext($1) AS k', [new URL(url).searchParams.get('schema')])).rows;
      const killed = await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = $1', [`LISTEN ${eventsChannel(k)}`]);
      assert.ok(killed.rowCount! >= 1, 'the listening connection was found');
    } finally {
      await admin.end();
    }
    // Heard again once it has reconnected (a reconnect itself wakes listeners: appends meanwhile went unheard).
    await wakesB();
  });
});
