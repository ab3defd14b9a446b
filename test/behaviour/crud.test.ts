import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RestwellServer } from '../../src/app/server.js';
import { engines, testServer } from '../../src/test-support/test-server.js';

const json = { 'content-type': 'application/json' };
const merge = { 'content-type': 'application/merge-patch+json' };
const jsonPatch = { 'content-type': 'application/json-patch+json' };

for (const engine of engines) {
  describe(`CRUD and HTTP semantics (${engine.name})`, () => {
    let server: RestwellServer;
    const inject = (opts: Parameters<RestwellServer['app']['inject']>[0]) => server.app.inject(opts as any);
    const create = async (body: Record<string, unknown>) => {
      const res = await inject({ method: 'POST', url: '/characters', headers: json, payload: body });
      assert.equal(res.statusCode, 201, res.body);
      return res;
    };
    before(async () => {
      server = await testServer(engine);
    });
    after(() => server.close());

    test('GET / links to every collection', async () => {
      const res = await inject({ method: 'GET', url: '/' });
      assert.equal(res.statusCode, 200);
      const body = res.json();
      assert.equal(body._links.characters.href, '/characters');
      assert.equal(body._links.messages.href, '/messages');
    });

    test('POST creates: 201, Location, ETag, HAL body with server-managed fields', async () => {
      const res = await create({ name: 'Homer', number: '555-0001' });
      const body = res.json();
      assert.equal(res.headers.location, `/characters/${body.id}`);
      assert.match(String(res.headers.etag), /^"1\.[\w-]+"$/);
      assert.equal(body.name, 'Homer');
      assert.equal(body.version, 1);
      assert.ok(Date.parse(body.createdAt));
      assert.equal(body.createdAt, body.updatedAt);
      assert.deepEqual(body._links.self, { href: `/characters/${body.id}` });
      assert.deepEqual(body._links.collection, { href: '/characters' });
    });

    test('GET reads with ETag; If-None-Match gives 304; HEAD has the headers and no body', async () => {
      const { id } = (await create({ name: 'Bart' })).json();
      const res = await inject({ method: 'GET', url: `/characters/${id}` });
      assert.equal(res.statusCode, 200);
      assert.equal(res.json().number, null);
      const etag = String(res.headers.etag);
      const cached = await inject({ method: 'GET', url: `/characters/${id}`, headers: { 'if-none-match': etag } });
      assert.equal(cached.statusCode, 304);
      assert.equal(cached.body, '');
      assert.equal(cached.headers.etag, etag);
      const listed = await inject({ method: 'GET', url: `/characters/${id}`, headers: { 'if-none-match': `"x", ${etag}` } });
      assert.equal(listed.statusCode, 304);
      const stale = await inject({ method: 'GET', url: `/characters/${id}`, headers: { 'if-none-match': '"0.nope"' } });
      assert.equal(stale.statusCode, 200);
      const head = await inject({ method: 'HEAD', url: `/characters/${id}` });
      assert.equal(head.statusCode, 200);
      assert.equal(head.headers.etag, etag);
      assert.equal(head.headers['content-length'], res.headers['content-length']);
      assert.equal(head.body, '');
    });

    test('application/json and application/hal+json get the same body; text/html the browsable page', async () => {
      const { id } = (await create({ name: 'Lisa' })).json();
      const plain = await inject({ method: 'GET', url: `/characters/${id}`, headers: { accept: 'application/json' } });
      const hal = await inject({ method: 'GET', url: `/characters/${id}`, headers: { accept: 'application/hal+json' } });
      assert.equal(hal.headers['content-type'], 'application/hal+json; charset=utf-8');
      assert.equal(plain.headers['content-type'], 'application/json; charset=utf-8');
      assert.deepEqual(plain.json(), hal.json());
      const html = await inject({ method: 'GET', url: `/characters/${id}`, headers: { accept: 'text/html,application/xhtml+xml' } });
      assert.match(String(html.headers['content-type']), /^text\/html/);
      assert.match(html.body, new RegExp(`<a href="/characters/${id}">`));
      assert.notEqual(html.headers.etag, plain.headers.etag, 'each representation has its own ETag');
    });

    test('PUT creates at a client-chosen id (201), replaces (200), and is idempotent', async () => {
      const url = '/characters/1000';
      const first = await inject({ method: 'PUT', url, headers: json, payload: { name: 'Maggie', number: '1' } });
      assert.equal(first.statusCode, 201);
      assert.equal(first.headers.location, url);
      assert.equal(first.json().id, 1000);
      const again = await inject({ method: 'PUT', url, headers: json, payload: { name: 'Maggie', number: '1' } });
      assert.equal(again.statusCode, 200);
      assert.equal(again.headers.etag, first.headers.etag, 'the same PUT twice leaves one state');
      assert.equal(again.json().version, 1);
      const replaced = await inject({ method: 'PUT', url, headers: json, payload: { name: 'Maggie' } });
      assert.equal(replaced.statusCode, 200);
      assert.equal(replaced.json().number, null, 'PUT replaces: absent fields are cleared');
      assert.equal(replaced.json().version, 2);
      const next = await create({ name: 'After a PUT' });
      assert.ok(next.json().id > 1000, 'server ids never collide with client-chosen ones');
    });

    test('PUT with If-Match: 412 on mismatch, 200 on match; If-None-Match: * is create-only', async () => {
      const created = await create({ name: 'Ned' });
      const { id } = created.json();
      const etag = String(created.headers.etag);
      const stale = await inject({ method: 'PUT', url: `/characters/${id}`, headers: { ...json, 'if-match': '"9.stale"' }, payload: { name: 'Ned', number: '2' } });
      assert.equal(stale.statusCode, 412);
      assert.equal(stale.headers['content-type'], 'application/problem+json; charset=utf-8');
      const weak = await inject({ method: 'PUT', url: `/characters/${id}`, headers: { ...json, 'if-match': `W/${etag}` }, payload: { name: 'Ned', number: '2' } });
      assert.equal(weak.statusCode, 412, 'If-Match uses the strong comparison');
      const ok = await inject({ method: 'PUT', url: `/characters/${id}`, headers: { ...json, 'if-match': etag }, payload: { name: 'Ned', number: '2' } });
      assert.equal(ok.statusCode, 200);
      const createOnly = await inject({ method: 'PUT', url: `/characters/${id}`, headers: { ...json, 'if-none-match': '*' }, payload: { name: 'Ned' } });
      assert.equal(createOnly.statusCode, 412);
      const fresh = await inject({ method: 'PUT', url: '/characters/2000', headers: { ...json, 'if-none-match': '*' }, payload: { name: 'Rod' } });
      assert.equal(fresh.statusCode, 201);
      const missing = await inject({ method: 'PUT', url: '/characters/2001', headers: { ...json, 'if-match': '*' }, payload: { name: 'Todd' } });
      assert.equal(missing.statusCode, 412, 'If-Match on a record that does not exist');
      assert.equal((await inject({ method: 'GET', url: '/characters/2001' })).statusCode, 404);
    });

    test('PUT accepts a GET body sent back (server-managed members unchanged) but not changed ones', async () => {
      const got = (await create({ name: 'Moe' })).json();
      const back = await inject({ method: 'PUT', url: `/characters/${got.id}`, headers: json, payload: { ...got, number: '3' } });
      assert.equal(back.statusCode, 200, back.body);
      const forged = await inject({ method: 'PUT', url: `/characters/${got.id}`, headers: json, payload: { name: 'Moe', version: 99 } });
      assert.equal(forged.statusCode, 422);
      assert.equal(forged.json().errors[0].pointer, '/version');
      const idInPost = await inject({ method: 'POST', url: '/characters', headers: json, payload: { id: 5, name: 'Barney' } });
      assert.equal(idInPost.statusCode, 422);
      assert.equal(idInPost.json().errors[0].pointer, '/id');
    });

    test('PATCH with merge patch (RFC 7396) updates only what it names', async () => {
      const { id } = (await create({ name: 'Apu', number: '4' })).json();
      const res = await inject({ method: 'PATCH', url: `/characters/${id}`, headers: merge, payload: { number: '44' } });
      assert.equal(res.statusCode, 200);
      assert.equal(res.json().name, 'Apu');
      assert.equal(res.json().number, '44');
      assert.equal(res.json().version, 2);
      const cleared = await inject({ method: 'PATCH', url: `/characters/${id}`, headers: merge, payload: { number: null } });
      assert.equal(cleared.json().number, null);
      const required = await inject({ method: 'PATCH', url: `/characters/${id}`, headers: merge, payload: { name: null } });
      assert.equal(required.statusCode, 422, 'removing a required field is invalid');
    });

    test('PATCH with JSON Patch (RFC 6902) is atomic', async () => {
      const { id } = (await create({ name: 'Krusty', number: '5' })).json();
      const ok = await inject({ method: 'PATCH', url: `/characters/${id}`, headers: jsonPatch, payload: [{ op: 'test', path: '/name', value: 'Krusty' }, { op: 'replace', path: '/number', value: '55' }] });
      assert.equal(ok.statusCode, 200);
      assert.equal(ok.json().number, '55');
      const failed = await inject({ method: 'PATCH', url: `/characters/${id}`, headers: jsonPatch, payload: [{ op: 'replace', path: '/number', value: '66' }, { op: 'test', path: '/name', value: 'Sideshow Bob' }] });
      assert.equal(failed.statusCode, 409);
      const after = await inject({ method: 'GET', url: `/characters/${id}` });
      assert.equal(after.json().number, '55', 'nothing of a failed patch is applied');
      const malformed = await inject({ method: 'PATCH', url: `/characters/${id}`, headers: jsonPatch, payload: [{ op: 'jump', path: '/name' }] });
      assert.equal(malformed.statusCode, 400);
      const optimistic = await inject({ method: 'PATCH', url: `/characters/${id}`, headers: jsonPatch, payload: [{ op: 'test', path: '/version', value: 1 }, { op: 'replace', path: '/number', value: '7' }] });
      assert.equal(optimistic.statusCode, 409, 'a test on version works as an optimistic lock');
    });

    test('PATCH with another media type is 415 with Accept-Patch; PATCH of a missing record is 404', async () => {
      const { id } = (await create({ name: 'Otto' })).json();
      const res = await inject({ method: 'PATCH', url: `/characters/${id}`, headers: json, payload: { number: '1' } });
      assert.equal(res.statusCode, 415);
      assert.match(String(res.headers['accept-patch']), /application\/merge-patch\+json/);
      assert.match(String(res.headers['accept-patch']), /application\/json-patch\+json/);
      const missing = await inject({ method: 'PATCH', url: '/characters/999999', headers: merge, payload: { number: '1' } });
      assert.equal(missing.statusCode, 404);
    });

    test('PATCH honours If-Match', async () => {
      const created = await create({ name: 'Willie' });
      const { id } = created.json();
      const stale = await inject({ method: 'PATCH', url: `/characters/${id}`, headers: { ...merge, 'if-match': '"1.other"' }, payload: { number: '1' } });
      assert.equal(stale.statusCode, 412);
      const ok = await inject({ method: 'PATCH', url: `/characters/${id}`, headers: { ...merge, 'if-match': String(created.headers.etag) }, payload: { number: '1' } });
      assert.equal(ok.statusCode, 200);
    });

    test('DELETE: 204, again 404; honours If-Match', async () => {
      const created = await create({ name: 'Patty' });
      const { id } = created.json();
      const guarded = await inject({ method: 'DELETE', url: `/characters/${id}`, headers: { 'if-match': '"7.nope"' } });
      assert.equal(guarded.statusCode, 412);
      const res = await inject({ method: 'DELETE', url: `/characters/${id}`, headers: { 'if-match': String(created.headers.etag) } });
      assert.equal(res.statusCode, 204);
      assert.equal(res.body, '');
      assert.equal((await inject({ method: 'DELETE', url: `/characters/${id}` })).statusCode, 404);
      assert.equal((await inject({ method: 'GET', url: `/characters/${id}` })).statusCode, 404);
    });

    test('an ETag never matches a new generation re-created at the same id', async () => {
      const first = await inject({ method: 'PUT', url: '/characters/3000', headers: json, payload: { name: 'Selma' } });
      await inject({ method: 'DELETE', url: '/characters/3000' });
      const second = await inject({ method: 'PUT', url: '/characters/3000', headers: json, payload: { name: 'Selma' } });
      assert.equal(second.statusCode, 201);
      assert.equal(second.json().version, 1);
      assert.notEqual(second.headers.etag, first.headers.etag);
      const old = await inject({ method: 'GET', url: '/characters/3000', headers: { 'if-none-match': String(first.headers.etag) } });
      assert.equal(old.statusCode, 200);
      const put = await inject({ method: 'PUT', url: '/characters/3000', headers: { ...json, 'if-match': String(first.headers.etag) }, payload: { name: 'Selma', number: '9' } });
      assert.equal(put.statusCode, 412);
    });

    test('OPTIONS lists Allow (and Accept-Patch on records); a wrong method is 405 with Allow', async () => {
      const item = await inject({ method: 'OPTIONS', url: '/characters/1' });
      assert.equal(item.statusCode, 204);
      assert.deepEqual(String(item.headers.allow).split(', ').sort(), ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'PUT']);
      assert.match(String(item.headers['accept-patch']), /merge-patch/);
      const coll = await inject({ method: 'OPTIONS', url: '/characters' });
      assert.deepEqual(String(coll.headers.allow).split(', ').sort(), ['GET', 'HEAD', 'OPTIONS', 'POST']);
      assert.equal(coll.headers['accept-post'], 'application/json, application/hal+json');
      const post = await inject({ method: 'POST', url: '/characters/1', headers: json, payload: {} });
      assert.equal(post.statusCode, 405);
      assert.equal(post.headers.allow, item.headers.allow);
      assert.equal(post.json().status, 405);
      const del = await inject({ method: 'DELETE', url: '/characters' });
      assert.equal(del.statusCode, 405);
    });

    test('lists embed HAL records with links', async () => {
      const res = await inject({ method: 'GET', url: '/characters' });
      assert.equal(res.statusCode, 200);
      const body = res.json();
      assert.ok(Array.isArray(body._embedded.characters));
      assert.ok(body._embedded.characters.every((c: any) => c._links.self.href === `/characters/${c.id}`));
      assert.equal(body._links.self.href, '/characters');
    });
  });
}
