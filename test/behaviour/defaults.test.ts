import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RestwellServer } from '../../src/app/server.js';
import { bearer, engines, testServer } from '../../src/test-support/test-server.js';

// No access block: the secure defaults apply (public reads, writes need tasks:write).
const CONFIG = {
  resources: {
    tasks: {
      fields: {
        title: { type: 'string', required: true },
        status: { type: 'enum', values: ['open', 'done'], required: true, default: 'open' },
        priority: { type: 'integer', required: true, minimum: 1, maximum: 5, default: 3 },
        labels: { type: 'json', required: true, default: [] },
        pinned: { type: 'boolean', default: false },
        note: { type: 'string' },
      },
    },
  },
  auth: { rateLimit: false },
};

for (const engine of engines) {
  describe(`access defaults and field defaults (${engine.name})`, () => {
    let server: RestwellServer;
    let writer: Record<string, string>;
    const inject = (opts: Record<string, unknown>) => server.app.inject(opts as any);
    const send = (method: string, url: string, payload: unknown, headers: Record<string, string> = writer) =>
      inject({ method, url, headers: { 'content-type': 'application/json', ...headers }, payload: JSON.stringify(payload) });
    before(async () => {
      server = await testServer(engine, CONFIG);
      writer = await bearer(server, ['tasks:write']);
    });
    after(() => server.close());

    test('without an access block anyone reads, and writing needs a token with <resource>:write (or *)', async () => {
      assert.equal((await inject({ url: '/tasks' })).statusCode, 200);
      const anonymous = await send('POST', '/tasks', { title: 'x' }, {});
      assert.equal(anonymous.statusCode, 401);
      assert.match(String(anonymous.headers['www-authenticate']), /^Bearer realm="restwell"/);
      const wrongScope = await send('POST', '/tasks', { title: 'x' }, await bearer(server, ['tasks:read']));
      assert.equal(wrongScope.statusCode, 403);
      assert.match(String(wrongScope.headers['www-authenticate']), /error="insufficient_scope".*scope="tasks:write"/);
      assert.equal((await send('POST', '/tasks', { title: 'by admin' }, await bearer(server, ['*']))).statusCode, 201);
      const created = await send('POST', '/tasks', { title: 'by writer' });
      assert.equal(created.statusCode, 201);
      assert.equal((await inject({ method: 'DELETE', url: `/tasks/${created.json().id}` })).statusCode, 401);
      assert.equal((await inject({ method: 'DELETE', url: `/tasks/${created.json().id}`, headers: writer })).statusCode, 204);
    });

    test('POST may leave out a required field that has a default: the default is stored', async () => {
      const res = await send('POST', '/tasks', { title: 'write tests' });
      assert.equal(res.statusCode, 201, res.body);
      const expected = { title: 'write tests', status: 'open', priority: 3, labels: [], pinned: false, note: null };
      for (const [k, v] of Object.entries(expected)) assert.deepEqual(res.json()[k], v, k);
      const read = (await inject({ url: `/tasks/${res.json().id}` })).json();
      for (const [k, v] of Object.entries(expected)) assert.deepEqual(read[k], v, k);
      const given = await send('POST', '/tasks', { title: 'done already', status: 'done', priority: 5, labels: ['x'] });
      assert.deepEqual([given.json().status, given.json().priority, given.json().labels], ['done', 5, ['x']]);
    });

    test('a required field without a default is still required; null is no value for a required field, default or not', async () => {
      const missing = await send('POST', '/tasks', {});
      assert.equal(missing.statusCode, 422);
      assert.deepEqual(missing.json().errors, [{ pointer: '/title', detail: 'is required' }]);
      const nulls = await send('POST', '/tasks', { title: 't', status: null });
      assert.equal(nulls.statusCode, 422);
      assert.deepEqual([...new Set(nulls.json().errors.map((e: { pointer: string }) => e.pointer))], ['/status']);
      assert.equal((await send('POST', '/tasks', { title: 't', priority: 9 })).statusCode, 422);
    });

    test('PUT replaces the whole state: a field left out gets its default, on create and on replace', async () => {
      const created = await send('PUT', '/tasks/500', { title: 'at a known id' });
      assert.equal(created.statusCode, 201, created.body);
      assert.deepEqual([created.json().status, created.json().priority], ['open', 3]);
      const changed = await send('PATCH', '/tasks/500', { status: 'done', priority: 1 }, { ...writer, 'content-type': 'application/merge-patch+json' });
      assert.equal(changed.statusCode, 200, changed.body);
      const replaced = await send('PUT', '/tasks/500', { title: 'replaced' });
      assert.equal(replaced.statusCode, 200);
      assert.deepEqual([replaced.json().title, replaced.json().status, replaced.json().priority, replaced.json().note], ['replaced', 'open', 3, null]);
    });

    test('removing a required field with a default by PATCH puts the default back; without a default it is 422', async () => {
      const id = (await send('POST', '/tasks', { title: 'p', status: 'done' })).json().id;
      // RFC 7396: null removes the member, so the result lacks it, as a POST body would, and gets the default.
      const nulled = await send('PATCH', `/tasks/${id}`, { status: null, priority: null }, { ...writer, 'content-type': 'application/merge-patch+json' });
      assert.equal(nulled.statusCode, 200, nulled.body);
      assert.deepEqual([nulled.json().status, nulled.json().priority], ['open', 3]);
      assert.equal((await send('PATCH', `/tasks/${id}`, { title: null }, { ...writer, 'content-type': 'application/merge-patch+json' })).statusCode, 422);
      await send('PATCH', `/tasks/${id}`, { status: 'done' }, { ...writer, 'content-type': 'application/merge-patch+json' });
      const removed = await send('PATCH', `/tasks/${id}`, [{ op: 'remove', path: '/status' }], { ...writer, 'content-type': 'application/json-patch+json' });
      assert.equal(removed.statusCode, 200, removed.body);
      assert.equal(removed.json().status, 'open');
    });

    test('OpenAPI lists only required fields without a default as required in the request body', async () => {
      const doc = (await inject({ url: '/openapi.json' })).json();
      const input = doc.components.schemas.TasksInput;
      assert.deepEqual(input.required, ['title']);
      assert.equal(input.properties.status.default, 'open');
      assert.deepEqual(doc.components.schemas.Tasks.required.slice(0, 4), ['id', 'title', 'status', 'priority'], 'responses always carry every field');
    });
  });
}
