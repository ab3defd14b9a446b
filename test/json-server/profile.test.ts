import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RestwellServer } from '../../src/app/server.js';
import { ConformanceChecker, type Exchange } from '../../src/test-support/openapi-conformance.js';
import { lint } from '../../src/test-support/openapi-lint.js';
import { bearer, engines, testServer } from '../../src/test-support/test-server.js';

// The json-server profile's own rules: what it adds to json-server (checks, limits, conditionals,
// errors) and what it keeps of Restwell. Equality with json-server itself is parity.test.ts's.
const open = { read: 'public', write: 'public' };
const config = {
  compat: 'json-server',
  resources: {
    users: { fields: { name: { type: 'string', required: true } }, access: open },
    posts: { fields: { title: { type: 'string', required: true }, views: { type: 'integer' }, meta: { type: 'json' }, userId: { type: 'reference', to: 'users' } }, access: open },
    comments: { fields: { body: { type: 'string' }, postId: { type: 'reference', to: 'posts' } }, access: open },
    notes: { compat: 'hal', fields: { text: { type: 'string' } }, access: open },
    secrets: { fields: { text: { type: 'string' } } },
  },
};

for (const engine of engines) {
  describe(`json-server profile (${engine.name})`, () => {
    let server: RestwellServer;
    const exchanges: Exchange[] = [];
    /** One request in-process, recorded so the last test can hold the OpenAPI document to every answer. */
    const inject = async (method: string, url: string, payload?: unknown, headers: Record<string, string> = {}) => {
      const res = await server.app.inject({ method: method as 'GET', url, ...(payload === undefined ? {} : { payload: payload as object }), headers });
      const body = payload === undefined ? undefined : typeof payload === 'string' ? payload : JSON.stringify(payload);
      const requestType = body === undefined ? undefined : (headers['content-type'] ?? 'application/json');
      if (server.app.restwell.resources.get(url.split(/[/?]/)[1]!)?.compat === 'json-server') exchanges.push({ method, url, requestType, requestBody: body, status: res.statusCode, headers: res.headers, body: res.body });
      return res;
    };
    const get = (url: string, headers: Record<string, string> = {}) => inject('GET', url, undefined, headers);
    before(async () => {
      server = await testServer(engine, config);
      await inject('POST', '/users', { name: 'typicode' });
      for (let i = 1; i <= 23; i++) await inject('POST', '/posts', { title: i % 2 ? `Rust ${i}` : `c++ ${i}`, views: i, userId: 1, meta: { tags: ['a'] } });
      for (let i = 1; i <= 3; i++) await inject('POST', '/comments', { body: `c${i}`, postId: 2 });
    });
    after(() => server.close());

    test('a list is a bare array of every record, without a limit', async () => {
      const res = await get('/posts');
      assert.equal(res.statusCode, 200);
      assert.match(res.headers['content-type'] as string, /^application\/json/);
      const rows = res.json();
      assert.equal(rows.length, 23);
      assert.deepEqual(Object.keys(rows[0]).sort(), ['createdAt', 'id', 'meta', 'title', 'updatedAt', 'userId', 'version', 'views']);
      assert.equal(res.headers['x-total-count'], undefined, 'json-server counts only a cut list');
    });

    test('_page numbers pages of _limit (10 by default), with X-Total-Count and json-server Link rels', async () => {
      const res = await get('/posts?_page=2&_limit=5');
      assert.deepEqual(res.json().map((p: { id: number }) => p.id), [6, 7, 8, 9, 10]);
      assert.equal(res.headers['x-total-count'], '23');
      assert.equal(res.headers['access-control-expose-headers'], 'X-Total-Count, Link');
      const rels = Object.fromEntries((res.headers.link as string).split(', ').map((l) => [/rel="(\w+)"/.exec(l)![1], /<([^>]+)>/.exec(l)![1]]));
      assert.deepEqual(rels, { first: '/posts?_page=1&_limit=5', prev: '/posts?_page=1&_limit=5', next: '/posts?_page=3&_limit=5', last: '/posts?_page=5&_limit=5' });
      assert.equal((await get('/posts?_page=3')).json().length, 3);
      const beyond = await get('/posts?_page=9&_limit=5');
      assert.deepEqual(beyond.json(), []);
      assert.equal(beyond.headers.link, undefined, 'an empty page has no links');
    });

    test('_start/_end and _start/_limit slice; _limit=0 only counts', async () => {
      assert.deepEqual((await get('/posts?_start=20&_end=22')).json().map((p: { id: number }) => p.id), [21, 22]);
      assert.deepEqual((await get('/posts?_start=21&_limit=5')).json().map((p: { id: number }) => p.id), [22, 23]);
      const none = await get('/posts?_limit=0');
      assert.deepEqual(none.json(), []);
      assert.equal(none.headers['x-total-count'], '23');
    });

    test("json-server 1's _per_page answers its pages object, a page past the last as the last", async () => {
      const body = (await get('/posts?_page=9&_per_page=10')).json();
      assert.deepEqual({ ...body, data: body.data.length }, { first: 1, prev: 2, next: null, last: 3, pages: 3, items: 23, data: 3 });
    });

    test('filters: repeated values match any, _ne skips records without a value, _gte/_lt, sort both ways', async () => {
      assert.deepEqual((await get('/posts?id=1&id=3&id=99')).json().map((p: { id: number }) => p.id), [1, 3]);
      assert.deepEqual((await get('/posts?id%5B%5D=1&id%5B%5D=3')).json().map((p: { id: number }) => p.id), [1, 3], "axios's id[]=1&id[]=3");
      assert.deepEqual((await get('/posts?views_gte=20&views_lt=22&_sort=views&_order=desc')).json().map((p: { views: number }) => p.views), [21, 20]);
      assert.deepEqual((await get('/posts?views_gt=21&_sort=-views')).json().map((p: { views: number }) => p.views), [23, 22]);
      await inject('POST', '/users', { name: 'nobody' });
      await inject('POST', '/posts', { title: 'orphan', views: null });
      assert.ok((await get('/posts?views_ne=1')).json().every((p: { views: unknown }) => p.views !== null));
      await inject('DELETE', `/posts/${(await get('/posts?title=orphan')).json()[0].id}`);
    });

    test('_like is a substring or a ^prefix, case-insensitive; other regular expressions are a clear 400', async () => {
      assert.equal((await get('/posts?title_like=rust')).json().length, 12);
      assert.equal((await get('/posts?title_like=^C%5C%2B%5C%2B')).json().length, 11, '^c\\+\\+ is the prefix "c++"');
      for (const pattern of ['r.st', 'rust$', '(rust|c)', '[rc]', 'a{2}', '\\d']) {
        const res = await get(`/posts?title_like=${encodeURIComponent(pattern)}`);
        assert.equal(res.statusCode, 400, pattern);
        assert.match(res.json().detail, /regular expression Restwell does not run/);
      }
      assert.match((await get('/posts?views_like=1')).json().detail, /_like matches text, and views is a number/);
    });

    test('what json-server would silently ignore or misread is a 400 naming it', async () => {
      const cases: Array<[string, RegExp]> = [
        ['/posts?nope=1', /posts has no field "nope"/],
        ['/posts?views=many', /not an integer/],
        ['/posts?_page=two', /_page must be a whole number/],
        ['/posts?_limit=-1', /_limit must be a whole number/],
        ['/posts?_limit=10001', /at most 10000/],
        ['/posts?_sort=nope', /no sortable field "nope"/],
        ['/posts?_expand=nope', /no reference field "nope"/],
        ['/posts?_embed=nope', /no resource "nope" references posts/],
        ['/posts?views_gte=1&views_gte=2', /views_gte may be given only once/],
      ];
      for (const [url, detail] of cases) {
        const res = await get(url);
        assert.equal(res.statusCode, 400, url);
        assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8');
        assert.match(res.json().detail, detail, url);
      }
      assert.equal((await get('/posts?_=123&callback=x')).statusCode, 200, "jQuery's cache-buster and JSONP's callback are ignored, as json-server ignores them");
    });

    test('_expand and _embed use json-server keys; a record reads bare, with its links in Link, and revalidates', async () => {
      const res = await get('/posts/2?_expand=user&_embed=comments');
      const post = res.json();
      assert.equal(post.user.name, 'typicode');
      assert.deepEqual(post.comments.map((c: { body: string }) => c.body), ['c1', 'c2', 'c3']);
      assert.match(res.headers.link as string, /<\/users\/1>; rel="userId"/);
      const plain = await get('/posts/2');
      assert.equal(plain.json()._links, undefined);
      assert.equal((await get('/posts/2', { 'if-none-match': plain.headers.etag as string })).statusCode, 304);
      assert.equal((await get('/comments?_embed=post')).json()[0].post.id, 2, "json-server 1's forward _embed");
      const listed = (await get('/posts?_page=1&_limit=2&_embed=comments')).json();
      assert.equal(listed[1].comments.length, 3);
    });

    test('nested paths list and create the children of one record', async () => {
      assert.deepEqual((await get('/posts/2/comments')).json().map((c: { body: string }) => c.body), ['c1', 'c2', 'c3']);
      assert.equal((await get('/posts/2/comments?_page=1&_limit=2')).headers['x-total-count'], '3');
      const created = await inject('POST', '/posts/3/comments', { body: 'nested', postId: 2 });
      assert.equal(created.statusCode, 201);
      assert.equal(created.json().postId, 3, "the path's parent wins, as in json-server");
      assert.equal((await get('/posts/abc/comments')).statusCode, 404);
      assert.equal((await get('/posts/3/comments?body=nested')).json().length, 1);
    });

    test('writes answer bare records; POST may name its id; PATCH takes plain JSON; DELETE answers {}', async () => {
      const created = await inject('POST', '/posts', { id: 500, title: 'mine', views: 1, version: 7, createdAt: 'x' });
      assert.equal(created.statusCode, 201);
      assert.equal(created.headers.location, '/posts/500');
      assert.equal(created.json().id, 500);
      assert.equal(created.json().version, 1, 'server-set members a front-end echoes are ignored');
      const taken = await inject('POST', '/posts', { id: 500, title: 'again' });
      assert.equal(taken.statusCode, 409);
      assert.equal(taken.json().type.endsWith('/problems/id-taken'), true);
      assert.equal((await inject('POST', '/posts', { id: 'abc', title: 'x' })).statusCode, 400);
      assert.equal((await inject('POST', '/posts', { title: 'drawn' })).json().id, 501, 'the drawn ids go on after a chosen one');
      const patched = await inject('PATCH', '/posts/500', { meta: { other: 1 }, views: 2 });
      assert.equal(patched.statusCode, 200);
      assert.deepEqual(patched.json().meta, { other: 1 }, 'top-level members replace, as json-server merges');
      const merge = await inject('PATCH', '/posts/500', JSON.stringify({ meta: { more: 2 } }), { 'content-type': 'application/merge-patch+json' });
      assert.deepEqual(merge.json().meta, { other: 1, more: 2 }, 'a real merge patch still merges deeply');
      const put = await inject('PUT', '/posts/500', { ...merge.json(), title: 'replaced' });
      assert.equal(put.statusCode, 200, 'a PUT of what was read, server-set members and all, works');
      assert.equal(put.json().title, 'replaced');
      assert.equal((await inject('PATCH', '/posts/500', 'title=x', { 'content-type': 'text/plain' })).statusCode, 415);
      const stale = await inject('PATCH', '/posts/500', { title: 'x' }, { 'if-match': merge.headers.etag as string });
      assert.equal(stale.statusCode, 412, 'If-Match still guards against lost updates');
      const gone = await inject('DELETE', '/posts/500');
      assert.equal(gone.statusCode, 200);
      assert.deepEqual(gone.json(), {});
      assert.equal((await inject('DELETE', '/posts/500')).statusCode, 404);
      assert.equal((await inject('POST', '/posts', [{ title: 'a' }])).statusCode, 422);
      await inject('DELETE', '/posts/501');
    });

    test('DELETE takes the records that reference the deleted one with it, as json-server does, each with its event', async () => {
      const post = (await inject('POST', '/posts', { title: 'doomed', userId: 1 })).json();
      const c1 = (await inject('POST', `/posts/${post.id}/comments`, { body: 'x' })).json();
      const c2 = (await inject('POST', `/posts/${post.id}/comments`, { body: 'y' })).json();
      const res = await inject('DELETE', `/posts/${post.id}`);
      assert.equal(res.statusCode, 200, res.body);
      for (const id of [c1.id, c2.id]) assert.equal((await get(`/comments/${id}`)).statusCode, 404);
      const events = await server.app.restwell.store.listEvents({ limit: 1000, types: ['comments.deleted'] });
      const deleted = events.filter((e) => e.type === 'comments.deleted').map((e) => e.recordId);
      for (const id of [c1.id, c2.id]) assert.ok(deleted.map(String).includes(String(id)), `comments.deleted for ${id}`);
      // Where the caller may not delete the dependents, nothing is deleted and the answer says why.
      const guarded = await testServer(engine, {
        compat: 'json-server',
        resources: {
          posts: { fields: { title: { type: 'string' } }, access: open },
          comments: { fields: { postId: { type: 'reference', to: 'posts' } }, access: { read: 'public', write: 'public', delete: ['comments:delete'] } },
        },
      });
      try {
        await guarded.app.inject({ method: 'POST', url: '/posts', payload: { title: 't' } });
        await guarded.app.inject({ method: 'POST', url: '/comments', payload: { postId: 1 } });
        const refused = await guarded.app.inject({ method: 'DELETE', url: '/posts/1' });
        assert.equal(refused.statusCode, 409);
        assert.equal((await guarded.app.inject({ method: 'GET', url: '/comments/1' })).statusCode, 200);
      } finally {
        await guarded.close();
      }
    });

    test('errors stay problem+json, unsupported methods 405 with Allow, and OPTIONS names the PATCH formats', async () => {
      const missing = await get('/posts/9999');
      assert.equal(missing.statusCode, 404);
      assert.equal(missing.headers['content-type'], 'application/problem+json; charset=utf-8');
      const put = await inject('PUT', '/posts');
      assert.equal(put.statusCode, 405);
      assert.equal(put.headers.allow, 'GET, HEAD, POST, OPTIONS');
      const options = await inject('OPTIONS', '/posts/1');
      assert.match(options.headers['accept-patch'] as string, /^application\/json, application\/merge-patch\+json/);
    });

    test("a client that asks for application/hal+json (the console) gets Restwell's HAL API on the same URLs", async () => {
      const hal = { accept: 'application/hal+json' };
      const page = (await get('/posts?limit=2&sort=-views', hal)).json();
      assert.equal(page._embedded.posts.length, 2);
      assert.ok(page._links.next);
      const record = await get('/posts/2', hal);
      assert.equal(record.headers['content-type'], 'application/hal+json; charset=utf-8');
      assert.equal(record.json()._links.self.href, '/posts/2');
      const created = await inject('POST', '/posts', { title: 'hal' }, hal);
      assert.equal(created.json()._links.self.href, `/posts/${created.json().id}`);
      assert.equal((await inject('DELETE', `/posts/${created.json().id}`, undefined, hal)).statusCode, 204);
      assert.ok(Array.isArray((await get('/posts?_limit=1')).json()), 'and json-server clients still get theirs');
    });

    test("a resource may keep Restwell's HAL API, and access rules still hold", async () => {
      await inject('POST', '/notes', { text: 'n' });
      assert.ok((await get('/notes')).json()._embedded, 'compat: hal overrides the global profile');
      assert.equal((await inject('POST', '/secrets', { text: 's' })).statusCode, 401, 'writes without an access block still need a token');
      const created = await inject('POST', '/secrets', { text: 's' }, await bearer(server));
      assert.equal(created.statusCode, 201);
      assert.equal(created.json().text, 's');
    });

    test('the OpenAPI document describes the profile and tells the truth about every answer above', async () => {
      const doc = (await get('/openapi.json')).json();
      const result = await lint(doc);
      assert.equal(result.valid, true, JSON.stringify(result.errors));
      assert.deepEqual(result.findings.filter((f) => f.severity <= 1), []);
      assert.equal(doc.paths['/posts/{id}/comments'].parameters[0].description.startsWith('The id of a posts record'), true);
      const checker = await ConformanceChecker.create(doc);
      assert.ok(exchanges.length > 80);
      assert.deepEqual((await Promise.all(exchanges.map((ex) => checker.check(ex)))).flat(), []);
    });

    test('the list cap: past 10000 matching records a list without _limit is a 400 that says how to page', { timeout: 120_000 }, async () => {
      const big = await testServer(engine, { compat: 'json-server', resources: { rows: { fields: { n: { type: 'integer' } }, access: open } } });
      try {
        const store = big.app.restwell.store;
        const resource = big.app.restwell.resources.get('rows')!;
        await store.importRecords([{ resource, records: Array.from({ length: 10_001 }, (_, i) => ({ id: i + 1, data: { n: i } })) }], { replace: false });
        const res = await big.app.inject({ method: 'GET', url: '/rows' });
        assert.equal(res.statusCode, 400);
        assert.match(res.json().detail, /more than 10000 rows records match.*_page=1&_limit=100/);
        assert.equal((await big.app.inject({ method: 'GET', url: '/rows?n_lt=10000' })).json().length, 10_000);
      } finally {
        await big.close();
      }
    });
  });
}
