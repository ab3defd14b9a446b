import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { engines, testServer } from '../../src/test-support/test-server.js';
import type { RestwellServer } from '../../src/app/server.js';
import { apiKey, AUTH_CONFIG, bearer } from './auth-support.js';

for (const engine of engines) {
  describe(`auth: /api-keys and /oauth/clients, rate limits (${engine.name})`, () => {
    let server: RestwellServer;
    let admin: Record<string, string>;
    before(async () => {
      server = await testServer(engine, { ...AUTH_CONFIG, auth: { rateLimit: { limit: 1000, window: '1m', resources: { characters: { limit: 3, window: '1m' } } } } });
      admin = bearer(await apiKey(server, ['*']));
    });
    after(() => server.close());

    test('POST /api-keys shows the key once; GET never does; the key works; DELETE revokes it', async () => {
      const created = await server.app.inject({ method: 'POST', url: '/api-keys', headers: admin, payload: { name: 'ci', scopes: 'characters:write', expiresIn: '30d' } });
      assert.equal(created.statusCode, 201, created.body);
      const body = created.json();
      assert.match(body.key, /^rw_[A-Za-z0-9_-]{43}$/);
      assert.equal(created.headers.location, `/api-keys/${body.id}`);
      assert.equal(created.headers['cache-control'], 'no-store');
      assert.deepEqual(body.scopes, ['characters:write']);
      assert.ok(Date.parse(body.expiresAt) > Date.now() + 29 * 86400_000);
      const list = await server.app.inject({ url: '/api-keys', headers: { authorization: admin.authorization } });
      assert.ok(!list.body.includes(body.key), 'the list never shows a key');
      assert.ok(!list.body.includes('hash'), 'nor its hash');
      assert.ok(list.json()._embedded['api-keys'].some((k: { id: string }) => k.id === body.id));
      const read = await server.app.inject({ url: `/api-keys/${body.id}`, headers: { authorization: admin.authorization } });
      assert.equal(read.json().name, 'ci');
      assert.equal(read.json().key, undefined);
      assert.equal((await server.app.inject({ method: 'DELETE', url: `/api-keys/${body.id}`, headers: { authorization: admin.authorization } })).statusCode, 204);
      assert.equal((await server.app.inject({ method: 'DELETE', url: `/api-keys/${body.id}`, headers: { authorization: admin.authorization } })).statusCode, 404);
    });

    test('bad input is a 422 naming each field', async () => {
      const res = await server.app.inject({ method: 'POST', url: '/api-keys', headers: admin, payload: { scopes: ['a"b'], expiresIn: 'soon', extra: 1 } });
      assert.equal(res.statusCode, 422);
      assert.deepEqual(res.json().errors.map((e: { pointer: string }) => e.pointer).sort(), ['/expiresIn', '/extra', '/name', '/scopes']);
    });

    test('an expiresIn beyond ten years (or no duration) is 422 naming the range, never a 500; nothing is stored', async () => {
      const count = async () => (await server.app.inject({ url: '/api-keys', headers: { authorization: admin.authorization } })).json().count;
      const before = await count();
      for (const expiresIn of ['99999999999999999999d', '3651d', '315360001s', '9007199254740993s', '0s', 1e308, -1, '1e400d', ['30d'], { d: 30 }]) {
        const res = await server.app.inject({ method: 'POST', url: '/api-keys', headers: admin, payload: { name: 'long', scopes: [], expiresIn } });
        assert.equal(res.statusCode, 422, `${JSON.stringify(expiresIn)}: ${res.body}`);
        assert.deepEqual(res.json().errors, [{ pointer: '/expiresIn', detail: 'must be a duration from 1s to 3650d (ten years), such as 3600s, 90m, 12h or 30d; omit it for a key that never expires' }]);
      }
      const huge = await server.app.inject({ method: 'POST', url: '/api-keys', headers: admin, payload: '{"name":"long","expiresIn":1e400}' });
      assert.equal(huge.statusCode, 422);
      assert.equal(await count(), before, 'no key was created');
      const longest = await server.app.inject({ method: 'POST', url: '/api-keys', headers: admin, payload: { name: 'decade', scopes: [], expiresIn: '3650d' } });
      assert.equal(longest.statusCode, 201, longest.body);
      assert.ok(Date.parse(longest.json().expiresAt) > Date.now() + 3649 * 86400_000);
      // OAuth clients take no lifetime at all: the field is unknown, whatever its size.
      const client = await server.app.inject({ method: 'POST', url: '/oauth/clients', headers: admin, payload: { name: 'svc', scopes: [], expiresIn: '99999999999999999999d' } });
      assert.equal(client.statusCode, 422);
      assert.deepEqual(client.json().errors.map((e: { pointer: string }) => e.pointer), ['/expiresIn']);
    });

    test('POST /oauth/clients shows the secret once; the client can get a token with it', async () => {
      const created = await server.app.inject({ method: 'POST', url: '/oauth/clients', headers: admin, payload: { name: 'svc', scopes: ['characters:write'] } });
      assert.equal(created.statusCode, 201, created.body);
      const { client_id, client_secret } = created.json();
      const list = await server.app.inject({ url: '/oauth/clients', headers: { authorization: admin.authorization } });
      assert.ok(!list.body.includes(client_secret));
      const tok = await server.app.inject({ method: 'POST', url: '/oauth/token', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `grant_type=client_credentials&client_id=${client_id}&client_secret=${client_secret}` });
      assert.equal(tok.statusCode, 200, tok.body);
      assert.equal(tok.json().scope, 'characters:write');
      assert.equal((await server.app.inject({ method: 'DELETE', url: `/oauth/clients/${client_id}`, headers: { authorization: admin.authorization } })).statusCode, 204);
    });

    test('the admin collections need the * scope', async () => {
      const plain = bearer(await apiKey(server, ['characters:write']));
      const res = await server.app.inject({ url: '/api-keys', headers: { authorization: plain.authorization } });
      assert.equal(res.statusCode, 403);
      assert.match(String(res.headers['www-authenticate']), /scope="\*"/);
      assert.equal((await server.app.inject({ url: '/oauth/clients' })).statusCode, 401);
    });

    test('rate limit per credential, per resource: RateLimit headers (draft-08), then 429 + Retry-After', async () => {
      const key = bearer(await apiKey(server, []));
      const get = (headers: Record<string, string> = {}) => server.app.inject({ url: '/characters', headers });
      const first = await get({ authorization: key.authorization });
      assert.equal(first.headers['ratelimit-policy'], '"characters";q=3;w=60');
      assert.match(String(first.headers.ratelimit), /^"characters";r=2;t=\d+$/);
      await get({ authorization: key.authorization });
      await get({ authorization: key.authorization });
      const limited = await get({ authorization: key.authorization });
      assert.equal(limited.statusCode, 429);
      assert.match(String(limited.headers['retry-after']), /^\d+$/);
      assert.match(String(limited.headers.ratelimit), /^"characters";r=0;t=\d+$/);
      assert.equal(limited.json().type, 'http://localhost:8080/problems/rate-limited');
      // Another credential has its own quota; other resources use the default policy.
      assert.equal((await get({ authorization: bearer(await apiKey(server, [])).authorization })).statusCode, 200);
      assert.equal((await server.app.inject({ url: '/api-keys', headers: { authorization: admin.authorization } })).headers['ratelimit-policy'], '"default";q=1000;w=60');
    });
  });
}
