import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { createServer, type RestwellServer } from '../../src/app/server.js';
import { ConfigError, resolveConfig } from '../../src/config/load.js';
import { defineResources } from '../../src/core/resource.js';
import { inferImport } from '../../src/json-server/import/infer-resources.js';
import { loadImport } from '../../src/json-server/import/load-import.js';
import { openStore } from '../../src/store/open.js';
import { ConformanceChecker, type Exchange } from '../../src/test-support/openapi-conformance.js';
import { documentFor, lint } from '../../src/test-support/openapi-lint.js';
import { bearer, engines, testServer } from '../../src/test-support/test-server.js';

/**
 * `profile` answers with Restwell's HAL API, `settings` as json-server does; both are singular
 * (one object at /{name}), writable only with their `:write` scope. `users` shows they sit beside
 * collections, and `pinned` requires If-Match.
 */
const CONFIG = {
  resources: {
    users: { fields: { name: { type: 'string', required: true } }, access: { read: 'public', write: 'public' } },
    profile: {
      singular: true,
      fields: { name: { type: 'string', required: true }, age: { type: 'integer', minimum: 0 }, owner: { type: 'reference', to: 'users' } },
      access: { read: 'public', write: ['profile:write'] },
    },
    settings: { singular: true, compat: 'json-server', fields: { theme: { type: 'string', required: true }, size: { type: 'integer' }, flags: { type: 'json' } }, access: { read: 'public', write: ['settings:write'] } },
    pinned: { singular: true, requireIfMatch: true, fields: { note: { type: 'string' } }, access: { read: 'public', write: 'public' } },
  },
};

const JSON_TYPE = 'application/json';
const MERGE = 'application/merge-patch+json';
const JSON_PATCH = 'application/json-patch+json';

/** A server on the data file the README's json-server example uses, loaded as `restwell import` loads it. */
async function importExample(url: string, compat?: 'json-server'): Promise<RestwellServer> {
  const plan = inferImport(JSON.parse(readFileSync(new URL('../../examples/json-server/db.json', import.meta.url), 'utf8')), 'db.json');
  const config = resolveConfig({ resources: plan.resources, ...(compat ? { compat } : {}) }, { env: {}, overrides: { database: url } });
  const store = await openStore(url);
  try {
    await loadImport(store, defineResources(config), plan, { source: 'db.json', replace: false, maxJsonDepth: config.server.maxJsonDepth, recordLimit: config.server.recordLimit });
  } finally {
    await store.close();
  }
  return createServer(config, { logger: false });
}

for (const engine of engines) {
  describe(`singular resources (${engine.name})`, () => {
    let server: RestwellServer;
    let admin: Record<string, string>;
    const exchanges: Exchange[] = [];
    /** One request, recorded for the OpenAPI check at the end. */
    const call = async (method: string, url: string, payload?: unknown, headers: Record<string, string> = {}, type = JSON_TYPE): Promise<LightMyRequestResponse> => {
      const body = payload === undefined ? undefined : typeof payload === 'string' ? payload : JSON.stringify(payload);
      const res = await server.app.inject({ method: method as 'GET', url, headers: { ...(body === undefined ? {} : { 'content-type': type }), ...headers }, ...(body === undefined ? {} : { payload: body }) });
      exchanges.push({ method, url, ...(body === undefined ? {} : { requestType: type, requestBody: body }), status: res.statusCode, headers: res.headers as Exchange['headers'], body: res.body });
      return res;
    };
    const expectStatus = (res: LightMyRequestResponse, status: number) => assert.equal(res.statusCode, status, `${res.statusCode}: ${res.body}`);
    const problem = (res: LightMyRequestResponse, status: number, type: string) => {
      expectStatus(res, status);
      assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
      assert.match(res.json().type, new RegExp(`/problems/${type}$`));
      return res.json();
    };

    before(async () => {
      server = await testServer(engine, CONFIG);
      admin = await bearer(server);
    });
    after(() => server.close());

    test('HAL: 404 until set; PUT creates (201) then replaces (200); the one record is id 1 at /{name}', async () => {
      assert.match(problem(await call('GET', '/profile'), 404, 'not-found').detail, /profile has not been set yet; PUT \/profile sets it/);
      problem(await call('PATCH', '/profile', { age: 1 }, admin, MERGE), 404, 'not-found');
      problem(await call('DELETE', '/profile', undefined, admin), 404, 'not-found');
      const created = await call('PUT', '/profile', { name: 'typicode', age: 30 }, admin);
      expectStatus(created, 201);
      assert.equal(created.headers.location, '/profile');
      const body = created.json();
      assert.equal(body.id, 1);
      assert.deepEqual(body._links, { self: { href: '/profile' } });
      assert.equal(body.version, 1);
      const replaced = await call('PUT', '/profile', { name: 'Ada' }, admin);
      expectStatus(replaced, 200);
      assert.deepEqual([replaced.json().name, replaced.json().age, replaced.json().version], ['Ada', null, 2]);
      const read = await call('GET', '/profile', undefined, { accept: 'application/hal+json' });
      expectStatus(read, 200);
      assert.match(String(read.headers['content-type']), /^application\/hal\+json/);
      assert.equal(read.json().name, 'Ada');
      // The GET body can be sent back as it is (not recorded for the OpenAPI check: the documented
      // input schema of every resource leaves out the server-managed members the server accepts back).
      const { _links, ...back } = (await call('GET', '/profile')).json();
      expectStatus(await server.app.inject({ method: 'PUT', url: '/profile', headers: { ...admin, 'content-type': JSON_TYPE }, payload: JSON.stringify({ ...back, age: 31 }) }), 200);
      assert.equal((await call('GET', '/profile')).json().age, 31);
    });

    test('HAL: no list, no /{name}/{id}, and POST is 405 with Allow', async () => {
      const post = await call('POST', '/profile', { name: 'x' }, admin);
      problem(post, 405, 'method-not-allowed');
      assert.equal(post.headers.allow, 'GET, HEAD, PUT, PATCH, DELETE, OPTIONS');
      problem(await call('GET', '/profile/1'), 404, 'not-found');
      const options = await call('OPTIONS', '/profile');
      expectStatus(options, 204);
      assert.equal(options.headers.allow, 'GET, HEAD, PUT, PATCH, DELETE, OPTIONS');
      assert.equal(options.headers['accept-patch'], `${MERGE}, ${JSON_PATCH}`);
      const root = (await call('GET', '/')).json();
      assert.deepEqual(root._links.profile.href, '/profile');
    });

    test('HAL: conditionals work as on any record (ETag, 304, If-Match, If-None-Match: *, 428 where required)', async () => {
      const read = await call('GET', '/profile');
      const etag = String(read.headers.etag);
      expectStatus(await call('GET', '/profile', undefined, { 'if-none-match': etag }), 304);
      problem(await call('PUT', '/profile', { name: 'x' }, { ...admin, 'if-none-match': '*' }), 412, 'precondition-failed');
      problem(await call('PATCH', '/profile', { age: 1 }, { ...admin, 'if-match': '"1.stale"' }, MERGE), 412, 'precondition-failed');
      const patched = await call('PATCH', '/profile', { age: 40 }, { ...admin, 'if-match': etag }, MERGE);
      expectStatus(patched, 200);
      assert.notEqual(patched.headers.etag, etag);
      const jsonPatched = await call('PATCH', '/profile', [{ op: 'replace', path: '/name', value: 'Grace' }], admin, JSON_PATCH);
      expectStatus(jsonPatched, 200);
      assert.deepEqual([jsonPatched.json().name, jsonPatched.json().age], ['Grace', 40]);
      problem(await call('PUT', '/pinned', { note: 'a' }), 428, 'precondition-required');
      expectStatus(await call('PUT', '/pinned', { note: 'a' }, { 'if-none-match': '*' }), 201);
      problem(await call('PUT', '/pinned', { note: 'a' }, { 'if-none-match': '*' }), 412, 'precondition-failed');
      const pinned = await call('GET', '/pinned');
      expectStatus(await call('PATCH', '/pinned', { note: 'b' }, { 'if-match': String(pinned.headers.etag) }, MERGE), 200);
    });

    test('access rules apply: reads are public, writes need the scope', async () => {
      const reader = await bearer(server, ['users:write']);
      problem(await call('PUT', '/profile', { name: 'x' }), 401, 'unauthorized');
      problem(await call('PATCH', '/profile', { name: 'x' }, reader, MERGE), 403, 'forbidden');
      problem(await call('PUT', '/settings', { theme: 'x' }, reader), 403, 'forbidden');
      problem(await call('POST', '/settings', { theme: 'x' }), 401, 'unauthorized');
      const writer = await bearer(server, ['profile:write']);
      expectStatus(await call('PATCH', '/profile', { age: 41 }, writer, MERGE), 200);
    });

    test('bad input is a problem, never stored: arrays, unknown members, bad values, bad JSON, references to nothing', async () => {
      assert.match(problem(await call('PUT', '/profile', [{ name: 'x' }], admin), 422, 'validation-failed').detail, /must be a JSON object/);
      assert.match(problem(await call('PUT', '/profile', { name: 'x', nickname: 'y' }, admin), 422, 'validation-failed').detail, /nickname: is not a field of profile/);
      problem(await call('PUT', '/profile', { name: 'x', age: -1 }, admin), 422, 'validation-failed');
      problem(await call('PUT', '/profile', { name: 'x', owner: 99 }, admin), 422, 'validation-failed');
      problem(await call('PUT', '/profile', { id: 2, name: 'x' }, admin), 422, 'validation-failed');
      problem(await call('PUT', '/profile', '{"name":', admin), 400, 'malformed-json');
      problem(await call('PATCH', '/profile', { name: 'x' }, admin, JSON_TYPE), 415, 'unsupported-media-type');
      assert.equal((await call('GET', '/profile')).json().name, 'Grace');
    });

    test('a reference out of a singular resource links and expands', async () => {
      const user = await call('POST', '/users', { name: 'Linus' });
      expectStatus(user, 201);
      expectStatus(await call('PATCH', '/profile', { owner: user.json().id }, admin, MERGE), 200);
      const read = (await call('GET', '/profile?expand=owner')).json();
      assert.equal(read._embedded.owner.name, 'Linus');
      assert.deepEqual((await call('GET', '/profile')).json()._links.owner, { href: `/users/${user.json().id}` });
    });

    test('json-server: bare objects; POST sets it (201), PUT replaces, PATCH merges top-level members', async () => {
      problem(await call('GET', '/settings'), 404, 'not-found');
      problem(await call('PATCH', '/settings', { size: 1 }, admin), 404, 'not-found');
      const set = await call('POST', '/settings', { theme: 'dark', flags: { a: 1, b: 2 } }, admin);
      expectStatus(set, 201);
      assert.equal(set.headers.location, '/settings');
      const { version, createdAt, updatedAt, ...fields } = set.json();
      assert.deepEqual(fields, { theme: 'dark', size: null, flags: { a: 1, b: 2 } });
      assert.equal(version, 1);
      assert.ok(createdAt && updatedAt);
      assert.equal(set.headers['content-type'], 'application/json; charset=utf-8');
      // POST again sets it again: still 201, as json-server answers.
      expectStatus(await call('POST', '/settings', { theme: 'light', size: 2, flags: { a: 1, b: 2 } }, admin), 201);
      // A shallow merge: flags is replaced whole, not merged into (Object.assign, not RFC 7396).
      const merged = await call('PATCH', '/settings', { size: 3, flags: { c: 3 } }, admin);
      expectStatus(merged, 200);
      assert.deepEqual([merged.json().theme, merged.json().size, merged.json().flags], ['light', 3, { c: 3 }]);
      // What a front-end read comes back with its system members; they are ignored.
      const read = await call('GET', '/settings');
      expectStatus(read, 200);
      assert.equal('id' in read.json() || '_links' in read.json(), false);
      const put = await call('PUT', '/settings', { ...read.json(), theme: 'blue', version: 99, createdAt: 'whenever' }, admin);
      expectStatus(put, 200);
      assert.deepEqual([put.json().theme, put.json().size, put.json().version], ['blue', 3, 4]);
    });

    test('json-server: conditionals, 405 on DELETE, and bad input as problems', async () => {
      const read = await call('GET', '/settings');
      const etag = String(read.headers.etag);
      expectStatus(await call('GET', '/settings', undefined, { 'if-none-match': etag }), 304);
      problem(await call('PUT', '/settings', { theme: 'x' }, { ...admin, 'if-match': '"9.stale"' }), 412, 'precondition-failed');
      expectStatus(await call('PATCH', '/settings', { size: 5 }, { ...admin, 'if-match': etag }), 200);
      const del = await call('DELETE', '/settings', undefined, admin);
      problem(del, 405, 'method-not-allowed');
      assert.equal(del.headers.allow, 'GET, HEAD, PUT, PATCH, POST, OPTIONS');
      problem(await call('GET', '/settings/1'), 404, 'not-found');
      assert.match(problem(await call('PUT', '/settings', [1, 2], admin), 422, 'validation-failed').detail, /must be a JSON object/);
      assert.match(problem(await call('PATCH', '/settings', [1, 2], admin), 422, 'validation-failed').detail, /must be a JSON object/);
      assert.match(problem(await call('PATCH', '/settings', { colour: 'red' }, admin), 422, 'validation-failed').detail, /colour: is not a field of settings/);
      problem(await call('POST', '/settings', { size: 1 }, admin), 422, 'validation-failed');
      problem(await call('PATCH', '/settings', { theme: null }, admin), 422, 'validation-failed');
      assert.equal((await call('PATCH', '/settings', { size: 5 }, admin, MERGE)).statusCode, 200, 'a merge patch works too');
      assert.equal((await call('GET', '/settings')).json().size, 5);
    });

    test('every change wrote its event, with the record id 1', async () => {
      const events = await server.store.listEvents({ limit: 1000 });
      const of = (name: string) => events.filter((e) => e.type.startsWith(`${name}.`));
      assert.deepEqual(of('profile').map((e) => e.type), ['profile.created', ...Array(of('profile').length - 1).fill('profile.updated')]);
      assert.ok(of('profile').length >= 5);
      assert.deepEqual(of('settings').map((e) => e.type).slice(0, 2), ['settings.created', 'settings.updated']);
      assert.ok(events.filter((e) => e.resource === 'profile' || e.resource === 'settings').every((e) => e.recordId === 1 && e.data.id === 1));
      expectStatus(await call('DELETE', '/profile', undefined, admin), 204);
      problem(await call('GET', '/profile'), 404, 'not-found');
      const last = (await server.store.listEvents({ limit: 1000 })).at(-1)!;
      assert.equal(last.type, 'profile.deleted');
    });

    test('the browsable HTML page of a singular resource is the page of its record', async () => {
      const res = await call('GET', '/pinned', undefined, { accept: 'text/html' });
      expectStatus(res, 200);
      assert.match(res.headers['content-type'] as string, /^text\/html/);
      assert.match(res.body, /id="rw-edit" data-action="\/pinned"/, 'the form edits the one record at /{name}');
      assert.doesNotMatch(res.body, /<form[^>]*(class="rw-query-form"|id="rw-create")/, 'no list filter, no create form');
    });

    test('every answer of the session conforms to /openapi.json, which lints clean', async () => {
      const doc = (await server.app.inject({ method: 'GET', url: '/openapi.json' })).json();
      assert.ok(doc.paths['/profile'] && doc.paths['/settings'] && !doc.paths['/profile/{id}'] && !doc.paths['/settings/{id}']);
      assert.deepEqual(Object.keys(doc.paths['/settings']).filter((m) => !['head', 'options', 'parameters'].includes(m)).sort(), ['get', 'patch', 'post', 'put']);
      const checker = await ConformanceChecker.create(doc);
      const violations = (await Promise.all(exchanges.map((ex) => checker.check(ex)))).flat();
      assert.deepEqual(violations, [], `the document and the server disagree:\n${violations.join('\n')}`);
      const result = await lint(documentFor(CONFIG));
      assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
      assert.deepEqual(result.findings.filter((f) => f.severity <= 1), []);
    });

    test('importing examples/json-server/db.json serves its profile at /profile (HAL, and as json-server)', async () => {
      const hal = await importExample(engine.freshUrl());
      try {
        const res = await hal.app.inject({ method: 'GET', url: '/profile' });
        expectStatus(res, 200);
        assert.equal(res.json().name, 'typicode');
        assert.deepEqual(res.json()._links.self, { href: '/profile' });
        assert.equal((await hal.app.inject({ method: 'GET', url: '/users/1' })).json().name, 'typicode', 'the collections are there too');
      } finally {
        await hal.close();
      }
      const js = await importExample(engine.freshUrl(), 'json-server');
      try {
        const res = await js.app.inject({ method: 'GET', url: '/profile' });
        expectStatus(res, 200);
        const { version, createdAt: _c, updatedAt: _u, ...fields } = res.json();
        assert.deepEqual(fields, { name: 'typicode' });
        assert.equal(version, 1);
        const auth = { ...(await bearer(js)), 'content-type': JSON_TYPE };
        const patched = await js.app.inject({ method: 'PATCH', url: '/profile', headers: auth, payload: JSON.stringify({ name: 'Ada' }) });
        expectStatus(patched, 200);
        assert.equal(patched.json().name, 'Ada');
      } finally {
        await js.close();
      }
    });
  });
}

describe('singular resources in the config', () => {
  const refused = (resources: Record<string, unknown>, pattern: RegExp) =>
    assert.throws(() => resolveConfig({ resources }, { env: {} }), (err: unknown) => {
      assert.ok(err instanceof ConfigError, String(err));
      assert.match(err.message, pattern);
      return true;
    });

  test('a singular resource cannot be referred to, its id is integer, and it has no owner rules', () => {
    refused({ profile: { singular: true, fields: {} }, posts: { fields: { by: { type: 'reference', to: 'profile' } } } }, /resources\.posts\.fields\.by\.to: "profile" is singular .* nothing can refer to it/);
    refused({ profile: { singular: true, id: 'uuid', fields: {} } }, /resources\.profile\.id: a singular resource holds one record, whose id is always 1; remove "id: uuid"/);
    refused({ profile: { singular: 'yes', fields: {} } }, /resources\.profile\.singular/);
    refused({ profile: { singular: true, fields: {}, access: { read: 'public', write: 'owner' } } }, /resources\.profile\.access\.write: a singular resource is one object shared by all, so it cannot have owner rules/);
    const config = resolveConfig({ resources: { profile: { singular: true, id: 'integer', fields: {} } } }, { env: {} });
    assert.equal(defineResources(config)[0]!.singular, true);
  });
});
