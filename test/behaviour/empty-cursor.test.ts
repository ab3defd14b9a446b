import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RestwellServer } from '../../src/app/server.js';
import { bearer, engines, testServer } from '../../src/test-support/test-server.js';

/**
 * One rule for `cursor=` on every listing: empty is the first page, as an empty `q=` is no search
 * (clients that build URLs from a template, and HTML forms, send empty parameters).
 */
for (const engine of engines) {
  describe(`an empty cursor is the first page on every listing (${engine.name})`, () => {
    let server: RestwellServer;
    let admin: Record<string, string>;
    before(async () => {
      server = await testServer(engine);
      admin = await bearer(server);
      for (const name of ['Homer', 'Marge', 'Bart']) {
        assert.equal((await server.app.inject({ method: 'POST', url: '/characters', headers: admin, payload: { name } })).statusCode, 201);
      }
      const ep = await server.app.inject({ method: 'POST', url: '/webhook-endpoints', headers: admin, payload: { url: 'https://example.com/hook' } });
      assert.equal(ep.statusCode, 201, ep.body);
    });
    after(() => server.close());

    test('resource lists, the event log, webhook endpoints and a source inbox', async () => {
      for (const path of ['/characters?limit=2', '/events?limit=2', '/webhook-endpoints?limit=2', '/webhooks/mail/events?limit=2']) {
        const first = await server.app.inject({ url: path, headers: admin });
        const empty = await server.app.inject({ url: `${path}&cursor=`, headers: admin });
        assert.equal(first.statusCode, 200, `${path}: ${first.body}`);
        assert.equal(empty.statusCode, 200, `${path}&cursor=: ${empty.body}`);
        assert.deepEqual(empty.json(), first.json(), path);
        // A cursor that is not empty is still checked.
        const forged = await server.app.inject({ url: `${path}&cursor=bm9wZQ`, headers: admin });
        assert.equal(forged.statusCode, 400, path);
        assert.match(forged.json().type, /\/problems\/invalid-query$/);
      }
    });
  });
}
