import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { bearer, engines, testServer } from '../../src/test-support/test-server.js';
import type { RestwellServer } from '../../src/app/server.js';

// What the console's table editor asks of a list: the total of every match (filters and search
// included), only when asked, and the records of a few ids in one request (reference names).
for (const engine of engines) {
  describe(`lists: total on request, filtered; a batch of ids (${engine.name})`, () => {
    let server: RestwellServer;
    before(async () => {
      server = await testServer(engine);
      const auth = await bearer(server);
      for (let i = 1; i <= 7; i++) {
        const res = await server.app.inject({ method: 'POST', url: '/characters', headers: { ...auth, 'content-type': 'application/json' }, payload: { name: `${i % 2 ? 'Odd' : 'Even'} ${i}`, number: `555-${i}` } });
        assert.equal(res.statusCode, 201, res.body);
      }
    });
    after(() => server.close());
    const list = async (qs: string) => {
      const res = await server.app.inject({ url: `/characters?${qs}` });
      assert.equal(res.statusCode, 200, res.body);
      return res.json();
    };

    test('no total unless asked', async () => {
      assert.equal((await list('limit=2')).total, undefined);
    });

    test('the total counts every match, not the page: unfiltered, filtered, searched', async () => {
      const all = await list('limit=1&fields=id&total=true');
      assert.equal(all.total, 7);
      assert.equal(all.count, 1);
      assert.equal((await list('limit=2&total=true&name[startsWith]=Odd')).total, 4);
      assert.equal((await list('limit=2&total=true&q=even')).total, 3);
      assert.equal((await list('limit=2&total=true&q=even&number=555-2')).total, 1);
      assert.equal((await list('total=true&name=Nobody')).total, 0);
    });

    test('id[in] with a sparse fieldset answers a batch of records in one request', async () => {
      const page = await list('id[in]=2,5,7&fields=id,name&limit=3');
      assert.deepEqual(page._embedded.characters.map((r: { id: number; name: string }) => [r.id, r.name]), [[2, 'Even 2'], [5, 'Odd 5'], [7, 'Odd 7']]);
      assert.equal(page._embedded.characters[0].number, undefined);
    });

    test('a bad total is a 400 naming it', async () => {
      const res = await server.app.inject({ url: '/characters?total=maybe' });
      assert.equal(res.statusCode, 400);
      assert.match(res.json().detail, /total/);
    });
  });
}
