import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { keyScope, requestFingerprint } from '../../src/http/idempotency.js';
import type { RestwellServer } from '../../src/app/server.js';
import type { IdempotencyClaim } from '../../src/store/idempotency.js';
import { engines, testServer } from '../../src/test-support/test-server.js';

const json = { 'content-type': 'application/json' };
const soon = (ms: number) => new Date(Date.now() + ms).toISOString();

/*
 * The state a crash leaves when it strikes after a write committed and before its response was
 * stored: the key is applied (in the write's transaction) and has no response. It is built here
 * through the store exactly as a first request builds it; the retries then go through HTTP.
 */
for (const engine of engines) {
  describe(`Idempotency-Key completed by its write (${engine.name})`, () => {
    let server: RestwellServer;
    const inject = (opts: Record<string, unknown>) => server.app.inject(opts as any);
    const ctx = () => server.app.restwell;
    const characters = () => ctx().resources.get('characters')!;
    const countNamed = async (name: string) => (await inject({ method: 'GET', url: `/characters?name=${encodeURIComponent(name)}` })).json().count;
    /** Claims `key` as the first request (method, url, content type, body) would. */
    const claimAs = async (key: string, id: string, method: string, url: string, contentType: string, body: unknown, leaseMs = 10_000): Promise<IdempotencyClaim> => {
      const claim = { scope: keyScope(undefined, method, url), key, id, fingerprint: requestFingerprint(method, url, contentType, body), expiresAt: soon(leaseMs) };
      assert.deepEqual(await ctx().store.claimIdempotencyKey(claim), { claimed: true });
      return claim;
    };
    const completion = (c: IdempotencyClaim) => ({ scope: c.scope, key: c.key, claimId: c.id, expiresAt: soon(3_600_000) });

    before(async () => {
      server = await testServer(engine);
    });
    after(() => server.close());

    test('a POST retried after its write committed but before its response was stored gets the response rebuilt, not a second record', async () => {
      const body = { name: 'Ned' };
      const claim = await claimAs('crashed-post', 'first', 'POST', '/characters', 'application/json', body);
      const record = await ctx().store.insert(characters(), ctx().validators.get('characters')!.prepare(body), { owner: null, idempotency: completion(claim) });

      const retry = await inject({ method: 'POST', url: '/characters', headers: { ...json, 'idempotency-key': 'crashed-post' }, payload: body });
      assert.equal(retry.statusCode, 201, retry.body);
      assert.equal(retry.headers['idempotent-replayed'], 'true');
      assert.equal(retry.headers.location, `/characters/${record.id}`);
      assert.equal(retry.json().id, record.id);
      assert.equal(retry.json().name, 'Ned');
      assert.equal(retry.headers.etag, (await inject({ method: 'GET', url: `/characters/${record.id}` })).headers.etag);
      assert.equal(await countNamed('Ned'), 1);

      // The body is the record as it is now.
      await inject({ method: 'PATCH', url: `/characters/${record.id}`, headers: { 'content-type': 'application/merge-patch+json' }, payload: { number: '42' } });
      const later = await inject({ method: 'POST', url: '/characters', headers: { ...json, 'idempotency-key': 'crashed-post' }, payload: body });
      assert.equal(later.statusCode, 201);
      assert.equal(later.json().number, '42');
      assert.equal(later.json().version, 2);
      assert.equal(await countNamed('Ned'), 1);
    });

    test('a PATCH retried after its write committed is not applied twice', async () => {
      const { id } = (await inject({ method: 'POST', url: '/characters', headers: json, payload: { name: 'Maude' } })).json();
      const patch = [{ op: 'add', path: '/number', value: '7' }];
      const url = `/characters/${id}`;
      const claim = await claimAs('crashed-patch', 'first', 'PATCH', url, 'application/json-patch+json', patch);
      const done = await ctx().store.mutate(characters(), id, (current) => ({ put: { ...current!.data, number: '7' } }), { idempotency: completion(claim) });
      assert.equal(done.outcome, 'updated');

      const retry = await inject({ method: 'PATCH', url, headers: { 'content-type': 'application/json-patch+json', 'idempotency-key': 'crashed-patch' }, payload: patch });
      assert.equal(retry.statusCode, 200, retry.body);
      assert.equal(retry.headers['idempotent-replayed'], 'true');
      assert.equal(retry.headers.location, undefined);
      assert.equal(retry.json().version, 2);
      assert.equal((await inject({ method: 'GET', url })).json().version, 2);
    });

    test('a claim whose lease ran out and was taken over cannot write any more; only its new holder can', async () => {
      const body = { name: 'Rod' };
      const stale = await claimAs('taken-over', 'slow', 'POST', '/characters', 'application/json', body, -1000);
      const fresh = await claimAs('taken-over', 'retry', 'POST', '/characters', 'application/json', body);
      const data = ctx().validators.get('characters')!.prepare(body);
      await assert.rejects(ctx().store.insert(characters(), data, { idempotency: completion(stale) }), (err: any) => err.code === 'idempotency-in-flight');
      assert.equal(await countNamed('Rod'), 0, 'the refused write left nothing');
      await ctx().store.insert(characters(), data, { idempotency: completion(fresh) });
      assert.equal(await countNamed('Rod'), 1);
    });

    test('a key whose write was applied is never released, even by a 5xx of the request that claimed it', async () => {
      const body = { name: 'Todd' };
      const claim = await claimAs('applied-then-5xx', 'first', 'POST', '/characters', 'application/json', body);
      await ctx().store.insert(characters(), ctx().validators.get('characters')!.prepare(body), { idempotency: completion(claim) });
      await ctx().store.completeIdempotencyKey(claim, undefined);
      const again = await ctx().store.claimIdempotencyKey({ ...claim, id: 'second' });
      assert.equal(again.claimed, false);
      assert.equal(!again.claimed && again.entry.applied?.outcome, 'created');
      const retry = await inject({ method: 'POST', url: '/characters', headers: { ...json, 'idempotency-key': 'applied-then-5xx' }, payload: body });
      assert.equal(retry.statusCode, 201);
      assert.equal(await countNamed('Todd'), 1);
    });
  });
}
