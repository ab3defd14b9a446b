import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RestwellServer } from '../../src/app/server.js';
import { engines, testServer } from '../../src/test-support/test-server.js';

const open = { read: 'public', write: 'public' };
const config = {
  resources: {
    users: { fields: { name: { type: 'string', required: true } }, access: open },
    posts: { fields: { title: { type: 'string', required: true }, views: { type: 'integer' }, userId: { type: 'reference', to: 'users' } }, access: open },
    comments: { fields: { body: { type: 'string' }, postId: { type: 'reference', to: 'posts' } }, access: open },
  },
};

for (const engine of engines) {
  describe(`json-server query parameters (${engine.name})`, () => {
    let server: RestwellServer;
    const get = (url: string) => server.app.inject({ method: 'GET', url });
    const same = async (jsonServer: string, restwell: string) => {
      const a = await get(jsonServer);
      const b = await get(restwell);
      assert.equal(a.statusCode, 200, `${jsonServer}: ${a.body}`);
      assert.equal(b.statusCode, 200, `${restwell}: ${b.body}`);
      assert.deepEqual(a.json()._embedded, b.json()._embedded, `${jsonServer} ≡ ${restwell}`);
      return a.json();
    };
    before(async () => {
      server = await testServer(engine, config);
      const post = (url: string, payload: object) => server.app.inject({ method: 'POST', url, payload });
      await post('/users', { name: 'typicode' });
      const rows = [['json-server', 10], ['Hello World', 250], ['hello again', 10], ['Other 50%', null]] as const;
      for (const [title, views] of rows) await post('/posts', { title, views, userId: 1 });
      await post('/comments', { body: 'nice', postId: 1 });
    });
    after(() => server.close());

    test('_sort, _order, _limit, q, _gte/_lte/_ne and _like translate to exact equivalents', async () => {
      await same('/posts?_sort=views,title&_order=desc,asc', '/posts?sort=-views,title');
      await same('/posts?_sort=-views', '/posts?sort=-views');
      await same('/posts?_sort=views', '/posts?sort=views');
      const limited = await same('/posts?_limit=2&_page=1', '/posts?limit=2');
      assert.match(limited._links.next.href, /limit=2/, 'the next link speaks Restwell');
      assert.doesNotMatch(limited._links.next.href, /_limit/);
      await same('/posts?views_gte=11', '/posts?views[gte]=11');
      await same('/posts?views_lte=10&views_ne=250', '/posts?views[lte]=10&views[ne]=250');
      const like = await same('/posts?title_like=HELLO', '/posts?title[icontains]=HELLO');
      assert.equal(like.count, 2);
      await same('/posts?q=hello', '/posts?q=hello');
      await same('/posts/?_expand=user'.replace('/?', '?'), '/posts?expand=userId');
      await same('/posts?_embed=comments', '/posts?expand=comments');
    });

    test('what has no exact equivalent is a 400 that points to the Restwell way', async () => {
      const cases: Array<[string, RegExp]> = [
        ['/posts?_page=2', /limit=N and follow _links.next/],
        ['/posts?_start=0&_end=2', /follow _links.next/],
        ['/posts?_per_page=5', /follow _links.next/],
        ['/posts?title_like=^hel', /title\[icontains\]/],
        ['/posts?_order=desc', /sort=-field/],
        ['/posts?_sort=views&_order=up', /neither asc nor desc/],
        ['/posts?_limit=2&limit=3', /send only limit/],
        ['/posts?_expand=nothing', /no reference field "nothing"/],
        ['/posts?_embed=users', /no resource "users" references posts/],
        ['/posts?_foo=1', /unknown query parameter "_foo"/],
      ];
      for (const [url, detail] of cases) {
        const res = await get(url);
        assert.equal(res.statusCode, 400, `${url}: ${res.body}`);
        assert.match(res.json().detail, detail, url);
      }
    });
  });
}
