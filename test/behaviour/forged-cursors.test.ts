import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RestwellServer } from '../../src/app/server.js';
import { engines, testServer } from '../../src/test-support/test-server.js';

const json = { 'content-type': 'application/json' };
const config = {
  resources: {
    owners: { id: 'uuid', fields: { name: { type: 'string' } }, access: { read: 'public', write: 'public' } },
    people: { fields: { name: { type: 'string', required: true } }, access: { read: 'public', write: 'public' } },
    things: {
      fields: {
        name: { type: 'string', required: true },
        age: { type: 'integer' },
        score: { type: 'number' },
        active: { type: 'boolean' },
        born: { type: 'datetime' },
        kind: { type: 'enum', values: ['a', 'b'] },
        by: { type: 'reference', to: 'people' },
        owner: { type: 'reference', to: 'owners' },
      },
      access: { read: 'public', write: 'public' },
    },
  },
};
const cursor = (body: unknown) => Buffer.from(JSON.stringify(body)).toString('base64url');
const nested = JSON.parse('['.repeat(50) + ']'.repeat(50));
/** Values that fit no sort key. */
const NEVER = [[], {}, [[1]], { a: { b: { c: {} } } }, nested];
const INTEGER = [...NEVER, 'x', '1', 1.5, -0.5, 1e300, -1e308, 99999999999999999999, true];
const TEXT = [...NEVER, 5, 1e300, true, 'a\u0000b'];
/** Per sort: a value its first key can hold (the control), and values it cannot. */
const SORTS: Record<string, { ok: unknown; bad: unknown[] }> = {
  '': { ok: 1, bad: [...INTEGER, null] },
  '-id': { ok: 1, bad: [...INTEGER, null] },
  age: { ok: 30, bad: INTEGER },
  '-score': { ok: 1e300, bad: [...NEVER, 'x', true] },
  active: { ok: false, bad: [...NEVER, 1, 0, 'true'] },
  name: { ok: 'x', bad: TEXT },
  born: { ok: '2020-01-01T00:00:00.000Z', bad: TEXT },
  kind: { ok: 'a', bad: TEXT },
  by: { ok: 1, bad: INTEGER },
  owner: { ok: '0190a6a0-0000-7000-8000-000000000000', bad: TEXT },
  createdAt: { ok: '2020-01-01T00:00:00.000Z', bad: [...TEXT, null] },
};

for (const engine of engines) {
  describe(`forged list cursors (${engine.name})`, () => {
    let server: RestwellServer;
    const get = (url: string) => server.app.inject({ method: 'GET', url });
    before(async () => {
      server = await testServer(engine, config);
      assert.equal((await server.app.inject({ method: 'POST', url: '/people', headers: json, payload: { name: 'p' } })).statusCode, 201);
      const thing = { name: 't', age: 30, score: 1.5, active: true, born: '2020-01-01T00:00:00Z', kind: 'a', by: 1 };
      assert.equal((await server.app.inject({ method: 'POST', url: '/things', headers: json, payload: thing })).statusCode, 201);
    });
    after(() => server.close());

    async function expectForged(url: string, detail: RegExp) {
      const res = await get(url);
      assert.equal(res.statusCode, 400, `${url} (${res.body})`);
      assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8');
      assert.match(res.json().type, /\/problems\/invalid-query$/);
      assert.match(res.json().detail, detail, url);
    }

    test('cursors that are not a JSON object of the issued shape are 400', async () => {
      for (const body of [null, 1, -1e400, 'x', true, [], [1, 2], {}, { v: null, s: '' }, { v: 1, s: '' }, { v: [1], s: 1 }, { v: [1] }, { v: [1], s: '', b: true }, { v: [1], s: '', b: 2 }, { v: [1, 1], s: '' }, { v: [], s: '' }]) {
        await expectForged(`/things?cursor=${cursor(body)}`, /not a cursor this server issued/);
      }
      const good = cursor({ v: [1], s: '' });
      for (const text of ['%%%', `${good}!`, `${good}==`, `${good}.x`, 'eyJ2IjpbMV0sInMiOiIif', Buffer.from([0x7b, 0xff, 0x7d]).toString('base64url')]) {
        await expectForged(`/things?cursor=${encodeURIComponent(text)}`, /not a cursor this server issued/);
      }
      // JSON this server never writes: a lone surrogate (a string sort key would take it), a repeated name.
      for (const text of ['{"v":["\\ud800",1],"s":"name"}', '{"v":[1],"s":"","s":""}']) {
        await expectForged(`/things?${text.includes('name') ? 'sort=name&' : ''}cursor=${Buffer.from(text).toString('base64url')}`, /not a cursor this server issued/);
      }
    });

    test('a cursor is bound to the sort it was issued for', async () => {
      await expectForged(`/things?sort=age&cursor=${cursor({ v: [1], s: '' })}`, /issued for sort=\(none\); keep the same sort/);
      await expectForged(`/things?cursor=${cursor({ v: [30, 1], s: 'age' })}`, /issued for sort=age/);
    });

    test('each sort key refuses values of another JSON type, huge numbers and nested values', async () => {
      for (const [sort, { ok, bad }] of Object.entries(SORTS)) {
        const keys = sort === '-id' ? 2 : sort ? 2 : 1;
        const url = (v: unknown) => `/things?${sort ? `sort=${sort}&` : ''}cursor=${cursor({ v: keys === 2 ? [v, 1] : [v], s: sort })}`;
        const control = await get(url(ok));
        assert.equal(control.statusCode, 200, `sort=${sort} with ${JSON.stringify(ok)}: ${control.body}`);
        for (const v of bad) await expectForged(url(v), /cursor holds .* follow the next\/prev links/);
      }
    });

    test('the id after the sort key is checked too, and a null is refused where the server never issues one', async () => {
      await expectForged(`/things?sort=age&cursor=${cursor({ v: [30, 'x'], s: 'age' })}`, /for id, which is not an integer/);
      await expectForged(`/things?sort=age&cursor=${cursor({ v: [30, null], s: 'age' })}`, /for id/);
      assert.equal((await get(`/things?sort=age&cursor=${cursor({ v: [null, 1], s: 'age' })}`)).statusCode, 200, 'a declared field may be null');
      await expectForged(`/owners?cursor=${cursor({ v: [5], s: '' })}`, /for id, which is not a string/);
    });

    test('a reference filter to an integer-id resource needs an integer id, on every engine', async () => {
      for (const q of ['by=abc', 'by[in]=1,abc', 'by[gt]=1.5', 'by=1234567890123456']) {
        await expectForged(`/things?${q}`, /is not an id of people/);
      }
      assert.equal((await get('/things?by=1')).json().count, 1);
      assert.equal((await get('/things?owner=123')).statusCode, 200, 'uuid references compare as text');
    });
  });
}
