import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { engines, testServer } from '../../src/test-support/test-server.js';
import type { RestwellServer } from '../../src/server.js';

const json = { 'content-type': 'application/json' };

for (const engine of engines) {
  describe(`CRUD (${engine.name})`, () => {
    let server: RestwellServer;
    before(async () => {
      server = await testServer(engine);
    });
    after(() => server.close());

    test('POST creates: 201, Location, ETag, HAL body', async () => {
      const res = await server.app.inject({ method: 'POST', url: '/characters', headers: json, payload: { name: 'Homer', number: '555-0001' } });
      assert.equal(res.statusCode, 201);
      const body = res.json();
      assert.equal(res.headers.location, `/characters/${body.id}`);
      assert.match(String(res.headers.etag), /^"1\.[\w-]+"$/);
      assert.equal(body.name, 'Homer');
      assert.equal(body.version, 1);
      assert.deepEqual(body._links.self, { href: `/characters/${body.id}` });
      assert.deepEqual(body._links.collection, { href: '/characters' });
    });
  });
}
