import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MAX_LIMIT } from '../../src/http/page-size.js';
import { engines, testServer } from '../../src/test-support/test-server.js';
import type { RestwellServer } from '../../src/app/server.js';

for (const engine of engines) {
  describe(`the browsable page's limit field allows what the server allows (${engine.name})`, () => {
    let server: RestwellServer;
    before(async () => {
      server = await testServer(engine);
    });
    after(() => server.close());

    test('its max is the largest limit a listing accepts, and one more is refused', async () => {
      const page = await server.app.inject({ url: '/characters', headers: { accept: 'text/html' } });
      assert.equal(page.statusCode, 200);
      const max = Number(/<input id="q-limit"[^>]* max="(\d+)"/.exec(page.body)?.[1]);
      assert.equal(max, MAX_LIMIT);
      assert.equal((await server.app.inject({ url: `/characters?limit=${max}` })).statusCode, 200);
      const over = await server.app.inject({ url: `/characters?limit=${max + 1}` });
      assert.equal(over.statusCode, 400, over.body);
    });
  });
}
