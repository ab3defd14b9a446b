import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import type { RestwellServer } from '../../src/app/server.js';
import { bearer, engines, testServer } from '../../src/test-support/test-server.js';

const JSON_TYPE = 'application/json';
const MERGE = 'application/merge-patch+json';
const JSON_PATCH = 'application/json-patch+json';
const HAL = 'application/hal+json';

/** `characters` (name required and unique, number) is public; `vaults` is written with vaults:write and read with vaults:read. */
const CONFIG = {
  resources: {
    characters: { fields: { name: { type: 'string', required: true, unique: true }, number: { type: 'string' } }, access: { read: 'public', write: 'public' } },
    vaults: { fields: { label: { type: 'string', required: true } }, access: { read: ['vaults:read'], write: ['vaults:write'] } },
  },
};

for (const engine of engines) {
  describe(`Prefer: return and handling on writes (${engine.name})`, () => {
    let server: RestwellServer;
    let n = 0;
    const send = (method: string, url: string, payload: unknown, headers: Record<string, string> = {}, type = JSON_TYPE) =>
      server.app.inject({ method: method as 'POST', url, headers: { 'content-type': type, ...headers }, payload: JSON.stringify(payload) });
    const get = (url: string, headers: Record<string, string> = {}) => server.app.inject({ method: 'GET', url, headers });
    const name = () => `c${++n}`;
    /** A response without a body: no content, no Content-Type. */
    const bodiless = (res: LightMyRequestResponse, status: number) => {
      assert.equal(res.statusCode, status, res.body);
      assert.equal(res.body, '');
      assert.equal(res.headers['content-type'], undefined);
    };
    const varies = (res: LightMyRequestResponse) => String(res.headers.vary).split(', ');

    before(async () => {
      server = await testServer(engine, CONFIG);
    });
    after(() => server.close());

    test('POST with return=minimal: 201, no body, Location, and the ETag and Last-Modified a GET then gives', async () => {
      const res = await send('POST', '/characters', { name: name() }, { prefer: 'return=minimal' });
      bodiless(res, 201);
      assert.match(String(res.headers.location), /^\/characters\/\d+$/);
      assert.equal(res.headers['preference-applied'], 'return=minimal');
      assert.deepEqual(varies(res), ['Prefer', 'Accept']);
      const read = await get(String(res.headers.location));
      assert.equal(res.headers.etag, read.headers.etag);
      assert.equal(res.headers['last-modified'], read.headers['last-modified']);
    });

    test('the ETag of a minimal answer is the one of the representation Accept selects, so If-Match with it holds', async () => {
      const created = await send('POST', '/characters', { name: name() }, { prefer: 'return=minimal', accept: HAL });
      bodiless(created, 201);
      const url = String(created.headers.location);
      assert.equal(created.headers.etag, (await get(url, { accept: HAL })).headers.etag);
      assert.match(String(created.headers.etag), /\.hal"$/);
      const put = await send('PUT', url, { name: `${name()}-renamed` }, { prefer: 'return=minimal', accept: HAL, 'if-match': String(created.headers.etag) });
      bodiless(put, 204);
      assert.equal(put.headers.etag, (await get(url, { accept: HAL })).headers.etag);
      const patched = await send('PATCH', url, { number: '555' }, { prefer: 'return=minimal', accept: HAL, 'if-match': String(put.headers.etag) }, MERGE);
      bodiless(patched, 204);
      assert.equal((await get(url)).json().number, '555');
    });

    test('PUT and PATCH with return=minimal: 204 with the new ETag (201 with Location when PUT creates)', async () => {
      const made = await send('PUT', '/characters/9100', { name: name() }, { prefer: 'return=minimal' });
      bodiless(made, 201);
      assert.equal(made.headers.location, '/characters/9100');
      assert.match(String(made.headers.etag), /^"1\./);
      const replaced = await send('PUT', '/characters/9100', { name: name() }, { prefer: 'return=minimal' });
      bodiless(replaced, 204);
      assert.match(String(replaced.headers.etag), /^"2\./);
      assert.equal(replaced.headers.location, undefined);
      assert.equal(replaced.headers['preference-applied'], 'return=minimal');
      const merged = await send('PATCH', '/characters/9100', { number: '1' }, { prefer: 'return=minimal' }, MERGE);
      bodiless(merged, 204);
      assert.match(String(merged.headers.etag), /^"3\./);
      const patched = await send('PATCH', '/characters/9100', [{ op: 'replace', path: '/number', value: '2' }], { prefer: 'return=minimal' }, JSON_PATCH);
      bodiless(patched, 204);
      assert.equal(patched.headers.etag, (await get('/characters/9100')).headers.etag);
    });

    test('return=representation is the default answer, said applied; without Prefer nothing changes', async () => {
      const plain = await send('POST', '/characters', { name: name() });
      assert.equal(plain.statusCode, 201);
      assert.equal(plain.headers['preference-applied'], undefined);
      assert.equal(plain.headers.vary, 'Accept');
      const full = await send('POST', '/characters', { name: name() }, { prefer: 'return=representation' });
      assert.equal(full.statusCode, 201);
      assert.equal(full.headers['preference-applied'], 'return=representation');
      assert.deepEqual(varies(full), ['Prefer', 'Accept']);
      assert.equal(full.json().version, 1);
      const patched = await send('PATCH', String(full.headers.location), { number: '7' }, { prefer: 'return=representation' }, MERGE);
      assert.equal(patched.statusCode, 200);
      assert.equal(patched.json().number, '7');
    });

    test('unknown, malformed and contradictory preferences are ignored: the default answer, nothing said applied', async () => {
      for (const prefer of ['respond-async, wait=5', 'return=Minimal', 'return="minimal', '@@@', 'return=minimal, return=representation', 'return=']) {
        const res = await send('POST', '/characters', { name: name() }, { prefer });
        assert.equal(res.statusCode, 201, prefer);
        assert.ok(res.json().id, prefer);
        assert.equal(res.headers['preference-applied'], undefined, prefer);
      }
      const mixed = await send('POST', '/characters', { name: name() }, { prefer: 'foo; bar="a,b", RETURN = "minimal"; x' });
      bodiless(mixed, 201);
    });

    test('handling=strict (the default) refuses an unknown member with 422; lenient drops it and applies the rest', async () => {
      const unknown = { name: name(), nickname: 'Homie' };
      const strict = await send('POST', '/characters', unknown);
      assert.equal(strict.statusCode, 422);
      assert.equal(strict.json().errors[0].pointer, '/nickname');
      const asked = await send('POST', '/characters', unknown, { prefer: 'handling=strict' });
      assert.equal(asked.statusCode, 422);
      assert.equal(asked.headers['preference-applied'], 'handling=strict', 'the problem says which handling refused it');
      const lenient = await send('POST', '/characters', unknown, { prefer: 'handling=lenient' });
      assert.equal(lenient.statusCode, 201, lenient.body);
      assert.equal(lenient.headers['preference-applied'], 'handling=lenient');
      assert.equal(lenient.json().nickname, undefined);
      assert.equal((await get(String(lenient.headers.location))).json().name, unknown.name);
      const both = await send('POST', '/characters', { name: name(), extra: 1 }, { prefer: 'return=minimal, handling=lenient' });
      bodiless(both, 201);
      assert.equal(both.headers['preference-applied'], 'handling=lenient, return=minimal');
    });

    test('lenient drops only unknown members: known ones are still validated, server-managed ones still checked', async () => {
      const lenient = { prefer: 'handling=lenient' };
      const wrongType = await send('POST', '/characters', { name: 42, extra: true }, lenient);
      assert.equal(wrongType.statusCode, 422);
      assert.deepEqual(wrongType.json().errors.map((e: { pointer: string }) => e.pointer), ['/name']);
      assert.equal((await send('POST', '/characters', { extra: true }, lenient)).statusCode, 422, 'a required field is still required');
      assert.equal((await send('POST', '/characters', { name: name(), version: 3 }, lenient)).statusCode, 422, 'a server-managed member is known, and read-only');
      const withHal = await send('POST', '/characters', { name: name(), _links: { self: { href: '/x' } }, extra: 1 }, lenient);
      assert.equal(withHal.statusCode, 201, 'HAL members are ignored as always');
    });

    test('lenient PUT and merge patch drop unknown members; a JSON Patch stays strict', async () => {
      const url = String((await send('POST', '/characters', { name: name() })).headers.location);
      const put = await send('PUT', url, { name: name(), number: '1', mood: 'happy' }, { prefer: 'handling=lenient' });
      assert.equal(put.statusCode, 200, put.body);
      assert.equal(put.json().number, '1');
      assert.equal(put.json().mood, undefined);
      const merged = await send('PATCH', url, { number: '2', mood: 'sad' }, { prefer: 'handling=lenient, return=minimal' }, MERGE);
      bodiless(merged, 204);
      assert.equal(merged.headers['preference-applied'], 'handling=lenient, return=minimal');
      assert.equal((await get(url)).json().number, '2');
      assert.equal((await send('PATCH', url, { mood: 'sad' }, {}, MERGE)).statusCode, 422, 'strict by default');
      const ops = await send('PATCH', url, [{ op: 'add', path: '/mood', value: 'sad' }], { prefer: 'handling=lenient' }, JSON_PATCH);
      assert.equal(ops.statusCode, 422, 'an operation is an instruction: it is not dropped');
      assert.equal(ops.headers['preference-applied'], undefined);
      assert.equal(ops.json().errors[0].pointer, '/mood');
    });

    test('an Idempotency-Key retry replays the first answer as it was, whatever its own return; lenient is part of the request', async () => {
      const key = { 'idempotency-key': `prefer-${engine.name}` };
      const payload = { name: name() };
      const first = await send('POST', '/characters', payload, { ...key, prefer: 'return=minimal' });
      bodiless(first, 201);
      const retry = await send('POST', '/characters', payload, { ...key, prefer: 'return=representation' });
      bodiless(retry, 201);
      assert.equal(retry.headers['idempotent-replayed'], 'true', 'the stored answer, not one reshaped');
      assert.equal(retry.headers['preference-applied'], 'return=minimal', 'which says what it is');
      assert.equal(retry.headers.location, first.headers.location);
      assert.equal(retry.headers.etag, first.headers.etag);
      assert.deepEqual(varies(retry), ['Prefer', 'Accept']);
      const strictKey = { 'idempotency-key': `prefer-strict-${engine.name}` };
      const odd = { name: name(), extra: 1 };
      assert.equal((await send('POST', '/characters', odd, strictKey)).statusCode, 422);
      const lenientRetry = await send('POST', '/characters', odd, { ...strictKey, prefer: 'handling=lenient' });
      assert.equal(lenientRetry.statusCode, 422);
      assert.match(lenientRetry.json().type, /idempotency-key-reused$/, 'a lenient request is another request: not the replay of a strict one');
    });

    test('a writer that may not read the record gets no body whatever it prefers; only minimal is said applied', async () => {
      const writer = await bearer(server, ['vaults:write']);
      const minimal = await send('POST', '/vaults', { label: 'v' }, { ...writer, prefer: 'return=minimal' });
      bodiless(minimal, 201);
      assert.equal(minimal.headers.etag, undefined);
      assert.equal(minimal.headers['preference-applied'], 'return=minimal');
      const asked = await send('POST', '/vaults', { label: 'w', extra: 1 }, { ...writer, prefer: 'return=representation, handling=lenient' });
      bodiless(asked, 201);
      assert.equal(asked.headers['preference-applied'], 'handling=lenient', 'the record was not sent, so representation was not applied');
      assert.equal(asked.headers.etag, undefined);
    });

    test('the OpenAPI document has Prefer on every write and the answers without a body', async () => {
      const doc = (await get('/openapi.json')).json();
      const ref = (o: { $ref?: string }) => (o.$ref ? doc.components[o.$ref.split('/')[2]][o.$ref.split('/')[3]] : o);
      for (const [path, method] of [['/characters', 'post'], ['/characters/{id}', 'put'], ['/characters/{id}', 'patch']] as const) {
        const op = doc.paths[path][method];
        assert.ok(op.parameters.map(ref).some((p: { name: string }) => p.name === 'Prefer'), `${method} ${path}`);
        for (const [status, response] of Object.entries<any>(op.responses)) {
          if (status.startsWith('2')) assert.ok(response.headers['Preference-Applied'], `${method} ${path} ${status}`);
        }
      }
      assert.equal(doc.paths['/characters'].post.responses['201']['x-body-optional'], true);
      assert.ok(doc.paths['/characters/{id}'].patch.responses['204']);
      assert.equal(doc.paths['/characters/{id}'].put.responses['204'].content, undefined);
      assert.ok(!doc.paths['/characters/{id}'].delete.parameters?.map(ref).some((p: { name: string }) => p.name === 'Prefer'));
    });
  });
}
