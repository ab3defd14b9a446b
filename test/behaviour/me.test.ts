import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { engines, testServer } from '../../src/test-support/test-server.js';
import type { RestwellServer } from '../../src/app/server.js';
import { routeTable } from '../../src/app/routes.js';
import { METRICS_SCOPE } from '../../src/app/ops/ops-routes.js';
import { FEATURE_SCOPES } from '../../src/auth/caller-rights.js';
import { apiKey, AUTH_CONFIG } from './auth-support.js';

for (const engine of engines) {
  describe(`GET /me: what the caller's token is and may do (${engine.name})`, () => {
    let server: RestwellServer;
    const me = (token?: string) => server.app.inject({ url: '/me', headers: token ? { authorization: `Bearer ${token}` } : {} });
    before(async () => {
      server = await testServer(engine, AUTH_CONFIG);
    });
    after(() => server.close());

    test('without a token: 401 problem+json with a Bearer challenge', async () => {
      const res = await me();
      assert.equal(res.statusCode, 401);
      assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
      assert.match(String(res.headers['www-authenticate']), /^Bearer/);
      assert.equal((await me('rw_not-a-key')).statusCode, 401);
    });

    test('a key with characters:write only: may write characters, its own notes, nothing else', async () => {
      const key = await apiKey(server, ['characters:write']);
      const res = await me(key);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers['cache-control'], 'private, no-store');
      const body = res.json();
      assert.equal(body.kind, 'api-key');
      assert.deepEqual(body.scopes, ['characters:write']);
      assert.equal(body.admin, false);
      assert.deepEqual(body.collections.characters, { read: true, create: true, update: true, delete: true });
      // notes are `owner` rules: any token may keep its own.
      assert.deepEqual(body.collections.notes, { read: true, create: true, update: true, delete: true });
      assert.deepEqual([body.events, body.webhooks, body.webhooksRead, body.inbox, body.metrics], [false, false, false, false, false]);
      // What /me says is what the routes do.
      const events = await server.app.inject({ url: '/events', headers: { authorization: `Bearer ${key}` } });
      assert.equal(events.statusCode, 403);
      const hooks = await server.app.inject({ url: '/webhook-endpoints', headers: { authorization: `Bearer ${key}` } });
      assert.equal(hooks.statusCode, 403);
    });

    test('a key that may not write characters is told so, and the route agrees', async () => {
      const key = await apiKey(server, ['events:read']);
      const body = (await me(key)).json();
      assert.deepEqual(body.collections.characters, { read: true, create: false, update: false, delete: false });
      assert.equal(body.events, true);
      const post = await server.app.inject({ method: 'POST', url: '/characters', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, payload: { name: 'Nope' } });
      assert.equal(post.statusCode, 403);
      assert.equal((await server.app.inject({ url: '/events', headers: { authorization: `Bearer ${key}` } })).statusCode, 200);
    });

    test('an admin key (*) may do everything', async () => {
      const body = (await me(await apiKey(server, ['*']))).json();
      assert.equal(body.admin, true);
      for (const c of ['characters', 'notes']) assert.deepEqual(body.collections[c], { read: true, create: true, update: true, delete: true });
      assert.deepEqual([body.events, body.webhooks, body.webhooksRead, body.inbox, body.metrics], [true, true, true, true, true]);
    });

    test('an OAuth client\'s access token: kind oauth-client, its client id and expiry, its granted scopes', async () => {
      const created = await server.context.auth.clients.create({ name: 'svc', scopes: ['characters:write', 'webhooks:read'] });
      const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: created.info.clientId, client_secret: created.clientSecret, scope: 'characters:write' });
      const issued = await server.app.inject({ method: 'POST', url: '/oauth/token', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: form.toString() });
      assert.equal(issued.statusCode, 200, issued.body);
      const body = (await me(issued.json().access_token)).json();
      assert.equal(body.kind, 'oauth-client');
      assert.equal(body.clientId, created.info.clientId);
      assert.ok(Date.parse(body.expiresAt) > Date.now());
      assert.deepEqual(body.scopes, ['characters:write']);
      assert.equal(body.collections.characters.create, true);
      assert.equal(body.webhooksRead, false, 'only the scopes the token was granted count');
    });

    test('the feature scopes /me checks are the ones those routes demand', () => {
      assert.deepEqual(FEATURE_SCOPES.metrics, [METRICS_SCOPE]);
      const rows = routeTable([]);
      const access = (method: string, path: string) => rows.find((r) => r.method === method && r.path === path)?.access;
      assert.deepEqual(access('GET', '/events'), FEATURE_SCOPES.events);
      assert.deepEqual(access('POST', '/webhook-endpoints'), FEATURE_SCOPES.webhooks);
      assert.deepEqual(access('GET', '/webhook-endpoints'), FEATURE_SCOPES.webhooksRead);
      assert.deepEqual(access('GET', '/webhooks/:source/events'), ['*']);
    });

    test('is documented in OpenAPI, needing a token', async () => {
      const doc = (await server.app.inject({ url: '/openapi.json' })).json();
      const op = doc.paths['/me'].get;
      assert.equal(op.operationId, 'getMe');
      assert.ok(op.responses['200'].content['application/json'].schema.$ref.endsWith('/Me'));
      assert.ok(op.responses['401']);
      assert.ok(op.security.some((s: Record<string, unknown>) => 'bearer' in s));
    });

    test('me is a reserved collection name', async () => {
      await assert.rejects(testServer(engine, { resources: { me: { fields: { a: { type: 'string' } } } } }), /"me" is a path the server itself serves/);
    });
  });
}
