import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { engines, testServer } from '../../src/test-support/test-server.js';
import type { RestwellServer } from '../../src/app/server.js';
import { apiKey, AUTH_CONFIG, bearer } from './auth-support.js';

for (const engine of engines) {
  describe(`auth: owner rules (${engine.name})`, () => {
    let server: RestwellServer;
    let alice: Record<string, string>;
    let bob: Record<string, string>;
    let admin: Record<string, string>;
    let aliceNote: string;
    before(async () => {
      server = await testServer(engine, AUTH_CONFIG);
      alice = bearer(await apiKey(server, [], 'alice'));
      bob = bearer(await apiKey(server, [], 'bob'));
      admin = bearer(await apiKey(server, ['*'], 'admin'));
      const res = await server.app.inject({ method: 'POST', url: '/notes', headers: alice, payload: { text: 'alice 1' } });
      assert.equal(res.statusCode, 201);
      aliceNote = res.headers.location as string;
      await server.app.inject({ method: 'POST', url: '/notes', headers: alice, payload: { text: 'alice 2' } });
      await server.app.inject({ method: 'POST', url: '/notes', headers: bob, payload: { text: 'bob 1' } });
    });
    after(() => server.close());

    const texts = async (headers: Record<string, string>, query = '') => {
      const res = await server.app.inject({ url: `/notes?total=true${query}`, headers: { authorization: headers.authorization } });
      assert.equal(res.statusCode, 200);
      assert.equal(res.json().total, res.json().count, 'the total counts only visible records');
      return (res.json()._embedded.notes as Array<{ text: string }>).map((n) => n.text).sort();
    };

    test('lists show only the caller’s own records; an admin sees all', async () => {
      assert.deepEqual(await texts(alice), ['alice 1', 'alice 2']);
      assert.deepEqual(await texts(bob), ['bob 1']);
      assert.deepEqual(await texts(admin), ['alice 1', 'alice 2', 'bob 1']);
      assert.deepEqual(await texts(bob, '&text[startsWith]=alice'), []);
    });

    test('another subject’s record is 404 for read, replace, patch and delete; the owner’s is intact', async () => {
      const auth = { authorization: bob.authorization };
      assert.equal((await server.app.inject({ url: aliceNote, headers: auth })).statusCode, 404);
      assert.equal((await server.app.inject({ method: 'HEAD', url: aliceNote, headers: auth })).statusCode, 404);
      assert.equal((await server.app.inject({ method: 'PUT', url: aliceNote, headers: bob, payload: { text: 'mine now' } })).statusCode, 404);
      assert.equal((await server.app.inject({ method: 'PATCH', url: aliceNote, headers: { ...auth, 'content-type': 'application/merge-patch+json' }, payload: { text: 'x' } })).statusCode, 404);
      assert.equal((await server.app.inject({ method: 'DELETE', url: aliceNote, headers: auth })).statusCode, 404);
      const own = await server.app.inject({ url: aliceNote, headers: { authorization: alice.authorization } });
      assert.equal(own.statusCode, 200);
      assert.equal(own.json().text, 'alice 1');
    });

    test('the 404 for a hidden record reads exactly like one for a record that never existed', async () => {
      const hidden = await server.app.inject({ url: aliceNote, headers: { authorization: bob.authorization } });
      const missing = await server.app.inject({ url: '/notes/999999', headers: { authorization: bob.authorization } });
      assert.equal(hidden.json().title, missing.json().title);
      assert.equal(hidden.json().detail.replace(/\d+/g, 'N'), missing.json().detail.replace(/\d+/g, 'N'));
    });

    test('owners may update and delete their own records', async () => {
      const created = await server.app.inject({ method: 'POST', url: '/notes', headers: bob, payload: { text: 'temp' } });
      const path = created.headers.location as string;
      assert.equal((await server.app.inject({ method: 'PUT', url: path, headers: bob, payload: { text: 'temp 2' } })).statusCode, 200);
      assert.equal((await server.app.inject({ method: 'DELETE', url: path, headers: { authorization: bob.authorization } })).statusCode, 204);
    });

    test('an owner rule needs a token: anonymous is 401', async () => {
      const res = await server.app.inject({ url: '/notes' });
      assert.equal(res.statusCode, 401);
      assert.equal(res.headers['www-authenticate'], 'Bearer realm="restwell"');
    });
  });
}
