import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RestwellServer } from '../../src/app/server.js';
import { engines, testServer } from '../../src/test-support/test-server.js';
import { apiKey, bearer } from './auth-support.js';

const open = { read: 'public', write: 'public' };
const config = {
  resources: {
    companies: { fields: { name: { type: 'string', required: true } }, access: open },
    users: { fields: { name: { type: 'string', required: true }, company: { type: 'reference', to: 'companies' } }, access: open },
    posts: {
      fields: { title: { type: 'string', required: true }, author: { type: 'reference', to: 'users' }, editor: { type: 'reference', to: 'users' } },
      access: open,
    },
    comments: { fields: { text: { type: 'string', required: true }, post: { type: 'reference', to: 'posts', index: true }, by: { type: 'reference', to: 'users' } }, access: open },
    secrets: { fields: { text: { type: 'string' }, post: { type: 'reference', to: 'posts' } }, access: { read: ['secrets:read'], write: 'public' } },
    notes: { fields: { text: { type: 'string' }, post: { type: 'reference', to: 'posts' } }, access: { read: 'owner', write: 'owner' } },
    labels: { id: 'uuid', fields: { name: { type: 'string' } }, access: open },
    items: { id: 'uuid', fields: { name: { type: 'string' }, label: { type: 'reference', to: 'labels' } }, access: open },
  },
};

for (const engine of engines) {
  describe(`expand (${engine.name})`, () => {
    let server: RestwellServer;
    let alice: Record<string, string>;
    let bob: Record<string, string>;
    const get = (url: string, headers: Record<string, string> = {}) => server.app.inject({ method: 'GET', url, headers });
    const post = async (url: string, payload: unknown, headers: Record<string, string> = {}) => {
      const res = await server.app.inject({ method: 'POST', url, payload: payload as object, headers });
      assert.equal(res.statusCode, 201, res.body);
      // A writer that may not read the record (anonymous secrets) gets only its Location.
      return res.body ? res.json() : {};
    };
    before(async () => {
      server = await testServer(engine, config);
      alice = bearer(await apiKey(server, [], 'alice'));
      bob = bearer(await apiKey(server, ['secrets:read'], 'bob'));
      const acme = await post('/companies', { name: 'Acme' });
      const ann = await post('/users', { name: 'Ann', company: acme.id });
      const ben = await post('/users', { name: 'Ben' });
      const p1 = await post('/posts', { title: 'First', author: ann.id, editor: ben.id });
      await post('/posts', { title: 'Second', author: ben.id });
      await post('/posts', { title: 'Orphan' });
      for (let i = 1; i <= 12; i++) await post('/comments', { text: `c${i}`, post: p1.id, by: i % 2 ? ann.id : ben.id });
      await post('/comments', { text: 'on second', post: 2, by: ann.id });
      await post('/secrets', { text: 'hush', post: p1.id });
      await post('/notes', { text: 'alice’s note', post: p1.id }, alice);
      await post('/notes', { text: 'bob’s note', post: p1.id }, bob);
    });
    after(() => server.close());

    test('a reference embeds its record in HAL form; nested paths go deeper; a null reference embeds null', async () => {
      const res = await get('/posts/1?expand=author.company,editor');
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      assert.equal(body.title, 'First');
      assert.equal(body._embedded.author.name, 'Ann');
      assert.equal(body._embedded.author._links.self.href, '/users/1');
      assert.equal(body._embedded.author._embedded.company.name, 'Acme');
      assert.equal(body._embedded.editor.name, 'Ben');
      assert.equal(body._embedded.editor._embedded, undefined, 'only the paths asked for are expanded');
      const orphan = (await get('/posts/3?expand=author,comments')).json();
      assert.equal(orphan._embedded.author, null);
      assert.deepEqual(orphan._embedded.comments, []);
      const ben = (await get('/users/2?expand=company')).json();
      assert.equal(ben._embedded.company, null);
    });

    test('a reverse reference embeds the first records that point here, by id, with a link to all of them', async () => {
      const body = (await get('/posts/1?expand=comments.by')).json();
      assert.deepEqual(body._embedded.comments.map((c: any) => c.text), ['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7', 'c8', 'c9', 'c10']);
      assert.equal(body._embedded.comments[1]._embedded.by.name, 'Ben');
      assert.equal(body._links.comments.href, '/comments?post=1');
      const all = (await get(body._links.comments.href)).json();
      assert.equal(all.count, 12);
      // users are referenced by posts through two fields: each is named collection:field
      const ann = (await get('/users/1?expand=posts:author,comments')).json();
      assert.deepEqual(ann._embedded['posts:author'].map((p: any) => p.title), ['First']);
      assert.equal(ann._embedded.comments.length, 7);
      assert.equal(ann._links['posts:author'].href, '/posts?author=1');
    });

    test('lists expand every record with one query per path, not one per record', async () => {
      const store = server.context.store;
      const calls: string[] = [];
      const list = store.list.bind(store);
      const referencing = store.listReferencing.bind(store);
      store.list = (r, q) => (calls.push(`list ${r.name}`), list(r, q));
      store.listReferencing = (r, q) => (calls.push(`referencing ${r.name}`), referencing(r, q));
      try {
        const res = await get('/posts?expand=author.company,comments&fields=title');
        assert.equal(res.statusCode, 200, res.body);
        const posts = res.json()._embedded.posts;
        assert.deepEqual(posts.map((p: any) => p._embedded.author?.name ?? null), ['Ann', 'Ben', null]);
        assert.deepEqual(posts.map((p: any) => p._embedded.comments.length), [10, 1, 0]);
        assert.equal(posts[0]._embedded.author._embedded.company.name, 'Acme');
        assert.equal(posts[0].author, undefined, 'fields= still trims the record itself');
        assert.deepEqual(calls.sort(), ['list companies', 'list posts', 'list users', 'referencing comments']);
        assert.match(res.json()._links.self.href, /expand=author.company%2Ccomments/);
      } finally {
        store.list = list;
        store.listReferencing = referencing;
      }
    });

    test('unknown, too deep or too many expansions are 400 naming them and the valid names', async () => {
      const unknown = await get('/posts/1?expand=auther');
      assert.equal(unknown.statusCode, 400);
      assert.match(unknown.json().detail, /"auther".*author, editor, comments, comments:post, secrets, secrets:post, notes, notes:post/);
      const ambiguous = await get('/users/1?expand=posts');
      assert.equal(ambiguous.statusCode, 400);
      assert.match(ambiguous.json().detail, /posts:author, posts:editor/);
      const cases = ['expand=author.company.name', 'expand=comments.post.comments.post', 'expand=author,editor,comments,author.company,editor.company,comments.by,comments.post,comments.by.company,comments:post,comments.post.author,comments.post.editor', `expand=${'x'.repeat(5000)}`, 'expand=author..company', 'expand=__proto__'];
      for (const query of cases) {
        const res = await get(`/posts?${query}`);
        assert.equal(res.statusCode, 400, `${query.slice(0, 80)}: ${res.body}`);
        assert.ok(res.json().detail.length < 600);
      }
    });

    test('an expansion into what the caller may not read is 403 naming it; owner rules embed only the caller’s own', async () => {
      const anonymous = await get('/posts/1?expand=secrets');
      assert.equal(anonymous.statusCode, 403);
      assert.equal(anonymous.json().type.endsWith('/problems/expand-forbidden'), true);
      assert.match(anonymous.json().detail, /expand=secrets.*secrets:read/);
      assert.equal((await get('/posts?expand=comments.post.secrets')).statusCode, 403);
      assert.equal((await get('/posts/1?expand=secrets', alice)).statusCode, 403);
      const allowed = await get('/posts/1?expand=secrets', bob);
      assert.equal(allowed.statusCode, 200);
      assert.deepEqual(allowed.json()._embedded.secrets.map((s: any) => s.text), ['hush']);
      assert.match(String(allowed.headers.vary), /Authorization/);
      assert.doesNotMatch(String((await get('/posts/1?expand=author')).headers.vary), /Authorization/);
      assert.equal((await get('/posts/1?expand=notes')).statusCode, 403, 'an owner rule needs a token');
      const mine = async (who: Record<string, string>) => (await get('/posts?expand=notes', who)).json()._embedded.posts[0]._embedded.notes.map((n: any) => n.text);
      assert.deepEqual(await mine(alice), ['alice’s note']);
      assert.deepEqual(await mine(bob), ['bob’s note']);
    });

    test('the ETag of an expanded read changes when an embedded record does, and 304 holds only until then', async () => {
      const plain = await get('/posts/1');
      const first = await get('/posts/1?expand=comments,author');
      const etag = first.headers.etag as string;
      assert.notEqual(etag, plain.headers.etag);
      assert.equal(first.headers['last-modified'], undefined);
      assert.equal((await get('/posts/1?expand=comments,author', { 'if-none-match': etag })).statusCode, 304);
      const head = await server.app.inject({ method: 'HEAD', url: '/posts/1?expand=comments,author' });
      assert.equal(head.headers.etag, etag);
      assert.equal(head.headers['content-length'], first.headers['content-length']);
      // the cached representation is reused only while nothing it embeds has changed
      const patch = await server.app.inject({ method: 'PATCH', url: '/users/1', headers: { 'content-type': 'application/merge-patch+json' }, payload: { name: 'Annie' } });
      assert.equal(patch.statusCode, 200, patch.body);
      const after = await get('/posts/1?expand=comments,author', { 'if-none-match': etag });
      assert.equal(after.statusCode, 200);
      assert.equal(after.json()._embedded.author.name, 'Annie');
      assert.notEqual(after.headers.etag, etag);
      assert.equal((await get('/posts/1')).headers.etag, plain.headers.etag, 'the post itself did not change');
      const del = await server.app.inject({ method: 'DELETE', url: '/comments/1' });
      assert.equal(del.statusCode, 204);
      const later = await get('/posts/1?expand=comments,author', { 'if-none-match': after.headers.etag as string });
      assert.equal(later.statusCode, 200);
      assert.equal(later.json()._embedded.comments[0].text, 'c2');
      assert.equal((await get('/posts/1?expand=comments,author', { 'if-match': '"1.nope"' })).statusCode, 412);
      assert.equal((await get('/posts/1?expand=comments,author', { 'if-match': later.headers.etag as string })).statusCode, 200);
      const hal = await get('/posts/1?expand=comments,author', { accept: 'application/hal+json' });
      assert.notEqual(hal.headers.etag, later.headers.etag);
      assert.equal((await get('/posts/1?expand=comments,author', { accept: 'application/hal+json', 'if-none-match': hal.headers.etag as string })).statusCode, 304);
    });

    test('uuid ids expand both ways', async () => {
      const label = await post('/labels', { name: 'red' });
      for (const name of ['a', 'b']) await post('/items', { name, label: label.id });
      const items = (await get('/items?expand=label.items&sort=name')).json()._embedded.items;
      assert.deepEqual(items.map((i: any) => i._embedded.label.name), ['red', 'red']);
      assert.deepEqual(items[0]._embedded.label._embedded.items.map((i: any) => i.name).sort(), ['a', 'b']);
      const red = (await get(`/labels/${label.id}?expand=items`)).json();
      assert.equal(red._embedded.items.length, 2);
      assert.equal(red._links.items.href, `/items?label=${label.id}`);
    });

    test('json-server’s _expand and _embed work on reads too', async () => {
      const body = (await get('/posts/1?_expand=author&_embed=comments')).json();
      assert.equal(body._embedded.author.name, 'Annie');
      assert.equal(body._embedded.comments.length, 10);
      assert.equal((await get('/users/1?_embed=posts')).statusCode, 400);
    });
  });
}
