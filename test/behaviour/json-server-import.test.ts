import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ImportError } from '../../src/json-server/import/import-error.js';
import { inferImport } from '../../src/json-server/import/infer-resources.js';
import { loadImport } from '../../src/json-server/import/load-import.js';
import { createServer, type RestwellServer } from '../../src/app/server.js';
import { resolveConfig } from '../../src/config/load.js';
import { defineResources } from '../../src/core/resource.js';
import { ImportRefusedError } from '../../src/store/errors.js';
import { openStore } from '../../src/store/open.js';
import { bearer, engines } from '../../src/test-support/test-server.js';

const UUID = '0190a5c4-8b1e-7c3d-9f00-0123456789ab';

const DB = {
  users: [{ id: 1, name: 'Ada', active: true }, { id: 2, name: 'Grace', active: false }],
  posts: [
    { id: 3, title: 'json-server', userId: 1, publishedAt: '2024-05-01T12:00:00+02:00', tags: ['a', 'b'] },
    { id: 10, title: 'restwell', userId: 2, publishedAt: '2024-05-02T08:30:00Z', rating: 4.5 },
  ],
  comments: [{ id: 1, body: 'first', postId: 3 }, { id: '2', body: 'second', postId: 10 }],
  notes: [{ id: UUID, text: 'uuid ids' }],
  profile: { name: 'typicode' },
};

/** Infers `data`, loads it into `url` (as `restwell import` does) and returns a server on that database. */
async function importAndServe(url: string, data: unknown, replace = false): Promise<RestwellServer> {
  const plan = inferImport(data, 'db.json');
  const config = resolveConfig({ resources: plan.resources }, { env: {}, overrides: { database: url } });
  const store = await openStore(url);
  try {
    await loadImport(store, defineResources(config), plan, { source: 'db.json', replace, maxJsonDepth: config.server.maxJsonDepth, recordLimit: config.server.recordLimit });
  } finally {
    await store.close();
  }
  return createServer(config, { logger: false });
}

for (const engine of engines) {
  describe(`json-server import (${engine.name})`, () => {
    let url: string;
    let server: RestwellServer;
    const get = async (path: string) => {
      const res = await server.app.inject({ method: 'GET', url: path });
      assert.equal(res.statusCode, 200, res.body);
      return res.json();
    };
    const fields = (record: Record<string, any>) => {
      const { version: _v, createdAt: _c, updatedAt: _u, _links, ...rest } = record;
      return rest;
    };
    before(async () => {
      url = engine.freshUrl();
      server = await importAndServe(url, DB);
    });
    after(() => server.close());

    test('records keep their ids and values; absent fields read as null; datetimes are stored in UTC', async () => {
      assert.deepEqual(fields(await get('/posts/3')), { id: 3, title: 'json-server', userId: 1, publishedAt: '2024-05-01T10:00:00.000Z', tags: ['a', 'b'], rating: null });
      assert.deepEqual(fields(await get('/posts/10')), { id: 10, title: 'restwell', userId: 2, publishedAt: '2024-05-02T08:30:00.000Z', tags: null, rating: 4.5 });
      assert.deepEqual(fields(await get('/users/2')), { id: 2, name: 'Grace', active: false });
      assert.deepEqual(fields(await get('/comments/2')), { id: 2, body: 'second', postId: 10 });
      assert.deepEqual(fields(await get(`/notes/${UUID.toUpperCase()}`)), { id: UUID, text: 'uuid ids' });
      const post = await get('/posts/3');
      assert.equal(post.version, 1);
      assert.deepEqual(post._links.userId, { href: '/users/1' });
    });

    test('references are enforced and filterable', async () => {
      const list = await get('/comments?postId=10');
      assert.deepEqual(list._embedded.comments.map((c: any) => c.id), [2]);
      const auth = await bearer(server);
      const bad = await server.app.inject({ method: 'POST', url: '/comments', headers: { ...auth, 'content-type': 'application/json' }, payload: { body: 'x', postId: 99 } });
      assert.equal(bad.statusCode, 422, bad.body);
    });

    test('the single object becomes a singular resource, served at its own path', async () => {
      assert.equal(server.context.resources.get('profile')?.singular, true);
      assert.deepEqual(fields(await get('/profile')), { id: 1, name: 'typicode' });
      assert.equal((await server.app.inject({ method: 'GET', url: '/profile/1' })).statusCode, 404);
    });

    test('q= finds imported records; on PostgreSQL their search indexes, set aside during the load, are back', async () => {
      assert.deepEqual((await get('/posts?q=JSON-SERVER'))._embedded.posts.map((p: any) => p.id), [3]);
      const pool = (server.context.store as any).engine?.pool;
      if (engine.name !== 'postgres') return;
      assert.ok(pool, 'the PostgreSQL engine exposes its pool');
      const indexes = (await pool.query(`SELECT indexname FROM pg_indexes WHERE tablename = 'posts' AND schemaname = current_schema()`)).rows.map((r: any) => r.indexname);
      assert.ok(indexes.includes('rw_posts_title_s'), indexes.join(', '));
    });

    test('a POST after the import gets the next id after the highest imported one', async () => {
      const auth = { ...(await bearer(server)), 'content-type': 'application/json' };
      const post = await server.app.inject({ method: 'POST', url: '/posts', headers: auth, payload: { title: 'next', userId: 1, publishedAt: '2024-06-01T00:00:00Z' } });
      assert.equal(post.statusCode, 201, post.body);
      assert.equal(post.json().id, 11);
      const user = await server.app.inject({ method: 'POST', url: '/users', headers: auth, payload: { name: 'Linus', active: true } });
      assert.equal(user.json().id, 3);
    });

    test('an import writes no events', async () => {
      const events = await server.store.listEvents({ limit: 100 });
      assert.deepEqual(events.filter((e) => e.type.endsWith('.created') && e.type !== 'posts.created' && e.type !== 'users.created'), []);
      assert.ok(events.every((e) => ['posts.created', 'users.created'].includes(e.type)), 'only the POSTs of the test before wrote events');
    });

    test('re-importing into collections that hold records is refused, and writes nothing at all', async () => {
      const plan = inferImport({ ...DB, tags: [{ id: 1, label: 'new' }] }, 'db.json');
      const config = resolveConfig({ resources: plan.resources }, { env: {}, overrides: { database: url } });
      const store = await openStore(url);
      try {
        await assert.rejects(loadImport(store, defineResources(config), plan, { source: 'db.json', replace: false, maxJsonDepth: 64, recordLimit: config.server.recordLimit }), (err: unknown) => {
          assert.ok(err instanceof ImportRefusedError);
          assert.deepEqual(err.resources, ['users', 'posts', 'comments', 'notes', 'profile']);
          return true;
        });
        const tags = defineResources(config).find((r) => r.name === 'tags')!;
        assert.equal(await store.get(tags, 1), undefined, 'the collection that was empty got nothing either');
      } finally {
        await store.close();
      }
    });

    test('createdAt and updatedAt date-times in the file become the records\' own (in UTC)', async () => {
      const other = await importAndServe(engine.freshUrl(), {
        tasks: [
          { id: 1, title: 'a', createdAt: '2024-01-01T10:00:00+01:00', updatedAt: '2024-02-01T00:00:00Z' },
          { id: 2, title: 'b', createdAt: '2023-06-01T00:00:00Z' },
          { id: 3, title: 'c' },
        ],
      });
      try {
        const read = async (id: number) => (await other.app.inject({ method: 'GET', url: `/tasks/${id}` })).json();
        assert.deepEqual([(await read(1)).createdAt, (await read(1)).updatedAt], ['2024-01-01T09:00:00.000Z', '2024-02-01T00:00:00.000Z']);
        assert.deepEqual([(await read(2)).createdAt, (await read(2)).updatedAt], ['2023-06-01T00:00:00.000Z', '2023-06-01T00:00:00.000Z']);
        assert.ok(Date.parse((await read(3)).createdAt) > Date.parse('2025-01-01T00:00:00Z'), 'without one, the time of the import');
        const sorted = (await other.app.inject({ method: 'GET', url: '/tasks?sort=createdAt' })).json();
        assert.deepEqual(sorted._embedded.tasks.map((t: any) => t.id), [2, 1, 3]);
      } finally {
        await other.close();
      }
    });

    test('string ids (json-server 1.x hex, 0.17 nanoid) become id: string, kept exactly; references to them load, filter and expand', async () => {
      const plan = inferImport(
        {
          posts: [{ id: 'a3f1', title: 'hex' }, { id: 'A3F1', title: 'upper' }, { id: 'Jz5f9_a', title: 'nanoid' }, { id: '012', title: 'zero' }],
          comments: [{ id: 'k-9Xq2b', text: 'first', postId: 'A3F1' }, { id: 'c2', text: 'second', postId: 'Jz5f9_a' }, { id: 'c3', text: 'third', postId: '012' }],
        },
        'db.json',
      );
      assert.equal(plan.resources.posts!.id, 'string');
      assert.equal(plan.resources.comments!.id, 'string');
      assert.deepEqual(plan.resources.comments!.fields.postId, { type: 'reference', to: 'posts', required: true });
      const other = await importAndServe(engine.freshUrl(), {
        posts: [{ id: 'a3f1', title: 'hex' }, { id: 'A3F1', title: 'upper' }, { id: 'Jz5f9_a', title: 'nanoid' }, { id: '012', title: 'zero' }],
        comments: [{ id: 'k-9Xq2b', text: 'first', postId: 'A3F1' }, { id: 'c2', text: 'second', postId: 'Jz5f9_a' }, { id: 'c3', text: 'third', postId: '012' }],
      });
      try {
        const read = async (path: string) => {
          const res = await other.app.inject({ method: 'GET', url: path });
          assert.equal(res.statusCode, 200, `${path}: ${res.body}`);
          return res.json();
        };
        assert.deepEqual(fields(await read('/posts/a3f1')), { id: 'a3f1', title: 'hex' });
        assert.deepEqual(fields(await read('/posts/A3F1')), { id: 'A3F1', title: 'upper' });
        assert.deepEqual(fields(await read('/posts/012')), { id: '012', title: 'zero' });
        assert.equal((await other.app.inject({ method: 'GET', url: '/posts/12' })).statusCode, 404, '"012" stays a string; 12 is no id');
        assert.deepEqual((await read('/comments?postId=A3F1'))._embedded.comments.map((c: any) => c.id), ['k-9Xq2b']);
        const comment = await read('/comments/k-9Xq2b?expand=postId');
        assert.equal(comment._embedded.postId.title, 'upper');
        assert.deepEqual((await read('/posts/Jz5f9_a?_embed=comments'))._embedded.comments.map((c: any) => c.text), ['second']);
        assert.deepEqual((await read('/posts?sort=id'))._embedded.posts.map((p: any) => p.id), ['012', 'A3F1', 'Jz5f9_a', 'a3f1']);
        const auth = { ...(await bearer(other)), 'content-type': 'application/json' };
        const drawn = await other.app.inject({ method: 'POST', url: '/comments', headers: auth, payload: { text: 'new', postId: 'a3f1' } });
        assert.equal(drawn.statusCode, 201, drawn.body);
        assert.match(drawn.json().id, /^[0-9a-f-]{36}$/, 'a POST draws a UUID v7');
        const dangling = await other.app.inject({ method: 'POST', url: '/comments', headers: auth, payload: { text: 'x', postId: 'a3F1' } });
        assert.equal(dangling.statusCode, 422, 'references compare case-sensitively');
      } finally {
        await other.close();
      }
    });

    test('a row no POST could store is refused before anything is written', async () => {
      const fresh = engine.freshUrl();
      await assert.rejects(importAndServe(fresh, { a: [{ id: 1, t: 'ok' }], b: [{ id: 1, t: 'nul \u0000 inside' }] }), (err: unknown) => {
        assert.ok(err instanceof ImportError);
        assert.match(err.message, /b id 1: t must not contain the NUL character/);
        return true;
      });
    });

    test('replacing collections that a resource outside the file refers to: allowed while it refers to none of their records', async () => {
      const fresh = engine.freshUrl();
      const data = { posts: [{ id: 1, title: 'a' }] };
      await (await importAndServe(fresh, data)).close();
      // Another config on the same database adds reviews of posts.
      const config = resolveConfig({ resources: { posts: { fields: { title: { type: 'string', required: true } } }, reviews: { fields: { postId: { type: 'reference', to: 'posts' } } } } }, { env: {}, overrides: { database: fresh } });
      const other = await createServer(config, { logger: false });
      await (await importAndServe(fresh, { posts: [{ id: 2, title: 'b' }] }, true)).close();
      const review = await other.app.inject({ method: 'POST', url: '/reviews', headers: { ...(await bearer(other)), 'content-type': 'application/json' }, payload: { postId: 2 } });
      assert.equal(review.statusCode, 201, review.body);
      await other.close();
      await assert.rejects(importAndServe(fresh, { posts: [{ id: 3, title: 'c' }] }, true), 'a review still refers to post 2');
      const server = await importAndServe(fresh, { posts: [{ id: 2, title: 'b' }] }).catch((err) => err);
      assert.ok(server instanceof ImportRefusedError, 'post 2 is still there: the failed replace changed nothing');
    });

    test('with replace, the records are replaced and ids still continue after every id ever drawn', async () => {
      await server.close();
      server = await importAndServe(url, { users: [{ id: 1, name: 'Only', active: true }], posts: [{ id: 2, title: 't', userId: 1, publishedAt: '2024-01-01T00:00:00Z' }], comments: [], notes: [] }, true);
      assert.deepEqual((await get('/posts'))._embedded.posts.map((p: any) => p.id), [2]);
      assert.deepEqual((await get('/comments'))._embedded.comments, []);
      const auth = { ...(await bearer(server)), 'content-type': 'application/json' };
      const post = await server.app.inject({ method: 'POST', url: '/posts', headers: auth, payload: { title: 'after', userId: 1, publishedAt: '2024-06-01T00:00:00Z' } });
      assert.equal(post.json().id, 12, 'never reuses 11, drawn before the replace');
    });
  });
}
