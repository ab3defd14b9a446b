import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RestwellServer } from '../../src/app/server.js';
import { engines, testServer } from '../../src/test-support/test-server.js';

const open = { read: 'public', write: 'public' };
const config = {
  resources: {
    tags: { id: 'string', fields: { name: { type: 'string' } }, access: open },
    notes: { fields: { title: { type: 'string', required: true }, tag: { type: 'reference', to: 'tags', index: true } }, access: open },
  },
};
const json = { 'content-type': 'application/json' };
const merge = { 'content-type': 'application/merge-patch+json' };

for (const engine of engines) {
  describe(`id: string resources (${engine.name})`, () => {
    let server: RestwellServer;
    const inject = (opts: Record<string, unknown>) => server.app.inject(opts as any);
    const get = (url: string) => inject({ method: 'GET', url });
    const put = (id: string, payload: object) => inject({ method: 'PUT', url: `/tags/${id}`, headers: json, payload });
    before(async () => {
      server = await testServer(engine, config);
    });
    after(() => server.close());

    test('POST draws the id (a UUID v7, which fits the rule); PUT at a new id creates it there', async () => {
      const drawn = await inject({ method: 'POST', url: '/tags', headers: json, payload: { name: 'drawn' } });
      assert.equal(drawn.statusCode, 201, drawn.body);
      assert.match(drawn.json().id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      assert.equal(drawn.headers.location, `/tags/${drawn.json().id}`);
      const made = await put('a3f1', { name: 'lower' });
      assert.equal(made.statusCode, 201, made.body);
      assert.equal(made.headers.location, '/tags/a3f1');
      assert.equal(made.json().id, 'a3f1');
      const nano = await put('Jz5f9_a-', { name: 'nanoid' });
      assert.equal(nano.statusCode, 201, nano.body);
      assert.equal((await get('/tags/Jz5f9_a-')).json().name, 'nanoid');
    });

    test('ids are case-sensitive and kept exactly: a3f1 and A3F1 are two records', async () => {
      assert.equal((await put('A3F1', { name: 'upper' })).statusCode, 201);
      assert.equal((await get('/tags/a3f1')).json().name, 'lower');
      const upper = await get('/tags/A3F1');
      assert.equal(upper.json().name, 'upper');
      assert.equal(upper.json().id, 'A3F1');
      assert.equal(upper.json()._links.self.href, '/tags/A3F1');
      assert.equal((await get('/tags/a3F1')).statusCode, 404);
    });

    test('GET, PATCH, PUT and DELETE by a string id', async () => {
      assert.equal((await put('x_1', { name: 'one' })).statusCode, 201);
      const patched = await inject({ method: 'PATCH', url: '/tags/x_1', headers: merge, payload: { name: 'two' } });
      assert.equal(patched.statusCode, 200, patched.body);
      assert.equal(patched.json().version, 2);
      const replaced = await put('x_1', { name: 'three' });
      assert.equal(replaced.statusCode, 200, replaced.body);
      assert.equal(replaced.json().name, 'three');
      assert.equal((await inject({ method: 'DELETE', url: '/tags/x_1' })).statusCode, 204);
      assert.equal((await get('/tags/x_1')).statusCode, 404);
    });

    test('an id that breaks the rule cannot exist: 404 on reads, PATCH and DELETE, 400 invalid-id on PUT', async () => {
      for (const id of ['a%20b', 'a.b', 'a~b', '%C3%A9t%C3%A9', 'x'.repeat(65)]) {
        for (const method of ['GET', 'PATCH', 'DELETE']) {
          const res = await inject({ method, url: `/tags/${id}`, ...(method === 'PATCH' ? { headers: merge, payload: {} } : {}) });
          assert.equal(res.statusCode, 404, `${method} ${id}: ${res.body}`);
          assert.equal(res.json().type.endsWith('/not-found'), true, res.body);
        }
        const res = await put(id, { name: 'no' });
        assert.equal(res.statusCode, 400, `PUT ${id}`);
        assert.match(res.json().detail, /cannot be an id of tags: ids are strings of 1–64 characters of A-Z a-z 0-9 _ - \(case-sensitive\)/);
      }
      assert.equal((await put('y'.repeat(64), { name: 'longest' })).statusCode, 201);
      assert.equal((await inject({ method: 'DELETE', url: `/tags/${'y'.repeat(64)}` })).statusCode, 204);
    });

    test('lists sort and page by id byte-wise, both ways, and filter by id', async () => {
      for (const id of ['b', 'B', '0z', 'a-2', 'a_1', 'Z9']) assert.equal((await put(id, { name: `s${id}` })).statusCode, 201);
      const all = (await get('/tags?limit=100')).json()._embedded.tags.map((t: any) => t.id as string);
      const expected = [...all].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      for (const [sort, order] of [['id', expected], ['-id', [...expected].reverse()]] as const) {
        const seen: string[] = [];
        let url: string | undefined = `/tags?sort=${sort}&limit=2`;
        while (url) {
          const res = await get(url);
          assert.equal(res.statusCode, 200, res.body);
          const body = res.json();
          seen.push(...body._embedded.tags.map((t: any) => t.id));
          url = body._links.next?.href;
        }
        assert.deepEqual(seen, order, sort);
      }
      assert.deepEqual((await get('/tags?id=B')).json()._embedded.tags.map((t: any) => t.name), ['sB']);
      assert.deepEqual((await get('/tags?id[in]=b,B,nope&sort=id')).json()._embedded.tags.map((t: any) => t.id), ['B', 'b']);
      assert.deepEqual((await get('/tags?id[gte]=a&id[lt]=b&sort=id')).json()._embedded.tags.map((t: any) => t.id), ['a-2', 'a3f1', 'a_1']);
    });

    test('a reference to a string-id resource holds the id exactly, filters, and expands both ways', async () => {
      const note = await inject({ method: 'POST', url: '/notes', headers: json, payload: { title: 'n1', tag: 'A3F1' } });
      assert.equal(note.statusCode, 201, note.body);
      assert.equal(note.json().tag, 'A3F1');
      assert.equal((await inject({ method: 'POST', url: '/notes', headers: json, payload: { title: 'n2', tag: 'a3f1' } })).statusCode, 201);
      const bad = await inject({ method: 'POST', url: '/notes', headers: json, payload: { title: 'n3', tag: 'a b' } });
      assert.equal(bad.statusCode, 422, bad.body);
      assert.equal((await inject({ method: 'POST', url: '/notes', headers: json, payload: { title: 'n3', tag: 7 } })).statusCode, 422);
      assert.equal((await inject({ method: 'POST', url: '/notes', headers: json, payload: { title: 'n3', tag: 'gone' } })).statusCode, 422);
      assert.deepEqual((await get('/notes?tag=A3F1')).json()._embedded.notes.map((n: any) => n.title), ['n1']);
      const expanded = (await get(`/notes/${note.json().id}?expand=tag`)).json();
      assert.equal(expanded._embedded.tag.name, 'upper');
      assert.equal(expanded._embedded.tag._links.self.href, '/tags/A3F1');
      const reverse = (await get('/tags/a3f1?expand=notes')).json();
      assert.deepEqual(reverse._embedded.notes.map((n: any) => n.title), ['n2']);
      assert.equal(reverse._links.notes.href, '/notes?tag=a3f1');
      const list = (await get('/notes?expand=tag&sort=title')).json()._embedded.notes;
      assert.deepEqual(list.map((n: any) => n._embedded.tag.id), ['A3F1', 'a3f1']);
    });

    test('the OpenAPI document describes the id and the path parameter by the rule', async () => {
      const doc = (await get('/openapi.json')).json();
      const tag = JSON.stringify(doc.components.schemas);
      assert.match(tag, /"pattern":"\^\[A-Za-z0-9_-\]\{1,64\}\$"/);
      const param = doc.paths['/tags/{id}'].parameters?.find((p: any) => p.name === 'id') ?? doc.paths['/tags/{id}'].get.parameters.find((p: any) => p.name === 'id');
      assert.equal(param.schema.type, 'string');
      assert.equal(param.schema.pattern, '^[A-Za-z0-9_-]{1,64}$');
    });
  });
}
