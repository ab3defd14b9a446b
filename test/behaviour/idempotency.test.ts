import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RestwellServer } from '../../src/app/server.js';
import { engines, testServer } from '../../src/test-support/test-server.js';

const json = { 'content-type': 'application/json' };

for (const engine of engines) {
  describe(`Idempotency-Key (${engine.name})`, () => {
    let server: RestwellServer;
    const inject = (opts: Record<string, unknown>) => server.app.inject(opts as any);
    const countNamed = async (name: string) => (await inject({ method: 'GET', url: `/characters?name=${encodeURIComponent(name)}` })).json().count;
    before(async () => {
      server = await testServer(engine);
    });
    after(() => server.close());

    test('without a key, a repeated POST creates a second record (RFC 9110 allows it)', async () => {
      await inject({ method: 'POST', url: '/messages', headers: json, payload: { subject: 'hi' } });
      await inject({ method: 'POST', url: '/messages', headers: json, payload: { subject: 'hi' } });
      assert.equal((await inject({ method: 'GET', url: '/messages?subject=hi' })).json().count, 2);
    });

    test('a retry with the same key and body replays the first response and creates nothing', async () => {
      const headers = { ...json, 'idempotency-key': 'key-1' };
      const first = await inject({ method: 'POST', url: '/characters', headers, payload: { name: 'Homer' } });
      assert.equal(first.statusCode, 201);
      const retry = await inject({ method: 'POST', url: '/characters', headers, payload: { name: 'Homer' } });
      assert.equal(retry.statusCode, 201, 'the first status, not a 409 for the taken name');
      assert.equal(retry.headers['idempotent-replayed'], 'true');
      assert.equal(retry.headers.location, first.headers.location);
      assert.equal(retry.headers.etag, first.headers.etag);
      assert.equal(retry.headers.vary, 'Accept', 'a replay is as negotiated as the first response');
      assert.equal(retry.body, first.body);
      assert.equal(await countNamed('Homer'), 1);
    });

    test('the same key with a different body is 422', async () => {
      const headers = { ...json, 'idempotency-key': 'key-2' };
      assert.equal((await inject({ method: 'POST', url: '/characters', headers, payload: { name: 'Marge' } })).statusCode, 201);
      const other = await inject({ method: 'POST', url: '/characters', headers, payload: { name: 'Lisa' } });
      assert.equal(other.statusCode, 422);
      assert.match(other.json().type, /idempotency-key-reused$/);
      assert.equal(await countNamed('Lisa'), 0);
    });

    test('50 concurrent identical requests create exactly one record; the others replay or get 409', async () => {
      const headers = { ...json, 'idempotency-key': 'burst' };
      const results = await Promise.all(Array.from({ length: 50 }, () => inject({ method: 'POST', url: '/characters', headers, payload: { name: 'Bart' } })));
      const statuses = results.map((r) => r.statusCode);
      assert.ok(statuses.every((s) => s === 201 || s === 409), statuses.join(','));
      assert.ok(statuses.includes(201));
      for (const r of results.filter((r) => r.statusCode === 409)) assert.match(r.json().type, /idempotency-in-flight$/);
      assert.equal(await countNamed('Bart'), 1);
      const later = await inject({ method: 'POST', url: '/characters', headers, payload: { name: 'Bart' } });
      assert.equal(later.statusCode, 201);
      assert.equal(later.headers['idempotent-replayed'], 'true');
    });

    test('PATCH with a key is applied once', async () => {
      const { id } = (await inject({ method: 'POST', url: '/characters', headers: json, payload: { name: 'Maggie' } })).json();
      const headers = { 'content-type': 'application/json-patch+json', 'idempotency-key': 'patch-1' };
      const payload = [{ op: 'add', path: '/number', value: '1' }];
      const a = await inject({ method: 'PATCH', url: `/characters/${id}`, headers, payload });
      const b = await inject({ method: 'PATCH', url: `/characters/${id}`, headers, payload });
      assert.equal(a.json().version, 2);
      assert.equal(b.json().version, 2, 'replayed, not applied twice');
      assert.equal((await inject({ method: 'GET', url: `/characters/${id}` })).json().version, 2);
    });

    test('a failed first request (4xx) is replayed too; keys are per URL; a malformed key is 400', async () => {
      const headers = { ...json, 'idempotency-key': 'bad-body' };
      const first = await inject({ method: 'POST', url: '/characters', headers, payload: { number: '1' } });
      assert.equal(first.statusCode, 422);
      const again = await inject({ method: 'POST', url: '/characters', headers, payload: { number: '1' } });
      assert.equal(again.statusCode, 422);
      assert.equal(again.headers['idempotent-replayed'], 'true');
      const elsewhere = await inject({ method: 'POST', url: '/messages', headers, payload: { subject: 'x' } });
      assert.equal(elsewhere.statusCode, 201);
      const malformed = await inject({ method: 'POST', url: '/characters', headers: { ...json, 'idempotency-key': '' }, payload: { name: 'x' } });
      assert.equal(malformed.statusCode, 400);
    });
  });
}
