import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { engines, testServer } from '../../src/test-support/test-server.js';
import type { RestwellServer } from '../../src/app/server.js';
import { apiKey, bearer } from './auth-support.js';

const CONFIG = {
  resources: {
    characters: { fields: { name: { type: 'string', required: true } }, access: { read: ['characters:read'], write: ['characters:write'] } },
    quotes: { fields: { text: { type: 'string' } }, access: { read: 'public', create: ['characters:write'], update: 'owner', delete: ['quotes:delete'] } },
  },
};

for (const engine of engines) {
  describe(`GET /api-keys/scopes: the scopes this server checks (${engine.name})`, () => {
    let server: RestwellServer;
    let admin: Record<string, string>;
    before(async () => {
      server = await testServer(engine, CONFIG);
      admin = bearer(await apiKey(server, ['*']));
    });
    after(() => server.close());

    test('lists the resources\' scopes with what they grant, then events, webhooks, metrics and admin', async () => {
      const res = await server.app.inject({ url: '/api-keys/scopes', headers: { authorization: admin.authorization } });
      assert.equal(res.statusCode, 200, res.body);
      const { scopes, count } = res.json() as { count: number; scopes: { scope: string; group: string; description: string; resources?: string[] }[] };
      assert.deepEqual(
        scopes.map((s) => [s.scope, s.group]),
        [
          ['characters:read', 'resource'],
          ['characters:write', 'resource'],
          ['quotes:delete', 'resource'],
          ['events:read', 'events'],
          ['webhooks:read', 'webhooks'],
          ['webhooks:write', 'webhooks'],
          ['webhooks:own', 'webhooks'],
          ['metrics:read', 'metrics'],
          ['*', 'admin'],
        ],
      );
      assert.equal(count, scopes.length);
      const write = scopes.find((s) => s.scope === 'characters:write')!;
      assert.deepEqual(write.resources, ['characters', 'quotes']);
      assert.equal(write.description, 'create, update, delete characters; create quotes');
    });

    test('only an admin may read it: 401 without a token, 403 with a resource scope', async () => {
      assert.equal((await server.app.inject({ url: '/api-keys/scopes' })).statusCode, 401);
      const reader = bearer(await apiKey(server, ['characters:read']));
      assert.equal((await server.app.inject({ url: '/api-keys/scopes', headers: { authorization: reader.authorization } })).statusCode, 403);
    });

    test('a key or client with a scope nothing checks is created, with a warning naming the likely scope', async () => {
      const key = await server.app.inject({ method: 'POST', url: '/api-keys', headers: admin, payload: { name: 'typo', scopes: 'charcters:write events:read' } });
      assert.equal(key.statusCode, 201, key.body);
      assert.deepEqual(key.json().scopes, ['charcters:write', 'events:read']);
      assert.deepEqual(key.json().warnings, ['scope "charcters:write" is not used by this server\'s config or routes, so it grants nothing; did you mean characters:write?']);
      const client = await server.app.inject({ method: 'POST', url: '/oauth/clients', headers: admin, payload: { name: 'svc', scopes: ['zzz'] } });
      assert.equal(client.statusCode, 201, client.body);
      assert.deepEqual(client.json().warnings, ['scope "zzz" is not used by this server\'s config or routes, so it grants nothing']);
      const fine = await server.app.inject({ method: 'POST', url: '/api-keys', headers: admin, payload: { name: 'fine', scopes: ['characters:write', '*'] } });
      assert.equal(fine.json().warnings, undefined, 'known scopes draw no warning');
    });

    test('the path is not taken for a key id: /api-keys/:id still reads keys', async () => {
      const created = await server.app.inject({ method: 'POST', url: '/api-keys', headers: admin, payload: { name: 'k', scopes: [] } });
      const read = await server.app.inject({ url: `/api-keys/${created.json().id}`, headers: { authorization: admin.authorization } });
      assert.equal(read.statusCode, 200);
      assert.equal(read.json().name, 'k');
    });
  });
}

describe('GET /api-keys/scopes without metrics behind a token', () => {
  test('metrics:read is offered only when /metrics needs it', async () => {
    const server = await testServer(engines[0]!, { ...CONFIG, server: { metrics: 'public' } });
    try {
      const admin = bearer(await apiKey(server, ['*']));
      const scopes = (await server.app.inject({ url: '/api-keys/scopes', headers: { authorization: admin.authorization } })).json().scopes as { scope: string }[];
      assert.ok(!scopes.some((s) => s.scope === 'metrics:read'), JSON.stringify(scopes));
    } finally {
      await server.close();
    }
  });
});
