import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RestwellServer } from '../../src/app/server.js';
import { engines, testServer } from '../../src/test-support/test-server.js';

const config = {
  resources: {
    books: {
      fields: {
        title: { type: 'string', required: true },
        author: { type: 'string' },
        isbn: { type: 'string' },
        genre: { type: 'enum', values: ['Fiction', 'History'] },
        pages: { type: 'integer' },
      },
      search: ['title', 'author'],
      access: { write: 'public' },
    },
    plain: { fields: { n: { type: 'integer' } } },
  },
};
const books = [
  { title: 'Crime and Punishment', author: 'Fyodor DOSTOEVSKY', isbn: 'ABC', genre: 'Fiction', pages: 671 },
  { title: 'ÉMILE ou de l’éducation', author: 'Rousseau', isbn: 'abc', genre: 'History', pages: 400 },
  { title: 'ΟΔΥΣΣΕΙΑ', author: 'Ὅμηρος', isbn: null, genre: 'Fiction', pages: 300 },
  { title: '100% pure_fun', author: null, isbn: 'x', genre: null, pages: 10 },
  { title: '100 percent, purely fun', author: 'anon', isbn: 'y', genre: 'History', pages: 20 },
  { title: 'İstanbul', author: 'Orhan Pamuk', isbn: 'z', genre: 'History', pages: 384 },
];

for (const engine of engines) {
  describe(`search and case-insensitive operators (${engine.name})`, () => {
    let server: RestwellServer;
    const get = (url: string) => server.app.inject({ method: 'GET', url });
    const titles = async (query: string) => {
      const res = await get(`/books?${query}`);
      assert.equal(res.statusCode, 200, `${query}: ${res.body}`);
      return res.json()._embedded.books.map((b: any) => b.title);
    };
    before(async () => {
      server = await testServer(engine, config);
      for (const b of books) assert.equal((await server.app.inject({ method: 'POST', url: '/books', payload: b })).statusCode, 201);
    });
    after(() => server.close());

    test('icontains and istartsWith fold case, Unicode included, the same on every engine', async () => {
      assert.deepEqual(await titles('title[icontains]=CRIME'), ['Crime and Punishment']);
      assert.deepEqual(await titles('author[icontains]=dostoevsky'), ['Crime and Punishment']);
      assert.deepEqual(await titles(`title[icontains]=${encodeURIComponent('émile')}`), ['ÉMILE ou de l’éducation']);
      assert.deepEqual(await titles(`title[istartsWith]=${encodeURIComponent('odyss')}`), []);
      // Greek: the final sigma folds like any sigma, so a word matches wherever it ends.
      assert.deepEqual(await titles(`title[icontains]=${encodeURIComponent('οδυσς')}`), ['ΟΔΥΣΣΕΙΑ']);
      assert.deepEqual(await titles(`title[istartsWith]=${encodeURIComponent('οδυσσ')}`), ['ΟΔΥΣΣΕΙΑ']);
      assert.deepEqual(await titles(`title[istartsWith]=${encodeURIComponent('i̇stan')}`), ['İstanbul']);
      assert.deepEqual(await titles('isbn[icontains]=abc'), ['Crime and Punishment', 'ÉMILE ou de l’éducation']);
      // contains stays case-sensitive
      assert.deepEqual(await titles('isbn[contains]=abc'), ['ÉMILE ou de l’éducation']);
      assert.deepEqual(await titles('genre[istartsWith]=fic'), ['Crime and Punishment', 'ΟΔΥΣΣΕΙΑ']);
    });

    test('% and _ match only themselves', async () => {
      assert.deepEqual(await titles(`title[icontains]=${encodeURIComponent('0% PURE_')}`), ['100% pure_fun']);
      assert.deepEqual(await titles(`title[icontains]=${encodeURIComponent('%')}`), ['100% pure_fun']);
      assert.deepEqual(await titles(`title[istartsWith]=${encodeURIComponent('100_')}`), []);
      assert.deepEqual(await titles(`q=${encodeURIComponent('e_f')}`), ['100% pure_fun']);
      assert.deepEqual(await titles(`q=${encodeURIComponent('\\')}`), []);
    });

    test('q= searches the declared fields, ignoring case, and combines with filters and paging', async () => {
      assert.deepEqual(await titles('q=PAMUK'), ['İstanbul']);
      assert.deepEqual(await titles('q=fun'), ['100% pure_fun', '100 percent, purely fun']);
      assert.deepEqual(await titles('q=fun&genre=History'), ['100 percent, purely fun']);
      assert.deepEqual(await titles('q=abc'), [], 'isbn is not a search field');
      assert.deepEqual(await titles(`q=${encodeURIComponent('ὅμηρ')}`), ['ΟΔΥΣΣΕΙΑ']);
      assert.deepEqual(await titles('q='), books.map((b) => b.title), 'an empty q searches nothing');
      const first = await get('/books?q=o&limit=2&sort=-pages&total=true');
      assert.equal(first.json().total, 4);
      assert.deepEqual(first.json()._embedded.books.map((b: any) => b.pages), [671, 400]);
      const next = await get(first.json()._links.next.href);
      assert.deepEqual(next.json()._embedded.books.map((b: any) => b.pages), [384, 20]);
    });

    test('hostile or impossible searches are 400, never 5xx', async () => {
      const cases = ['q=' + 'x'.repeat(201), 'q=a&q=b', 'pages[icontains]=1', 'title[ilike]=x', `q=${encodeURIComponent('a\u0000')}`];
      for (const query of cases) {
        const res = await get(`/books?${query}`);
        assert.equal(res.statusCode, 400, `${query}: ${res.body}`);
        assert.equal(res.json().type.endsWith('/problems/invalid-query'), true);
      }
      const none = await get('/plain?q=x');
      assert.equal(none.statusCode, 400);
      assert.match(none.json().detail, /no search fields/);
      const long = await get(`/books?q=${encodeURIComponent('ø'.repeat(200))}`);
      assert.equal(long.statusCode, 200, '200 characters, however many bytes, are accepted');
    });

    test('the OpenAPI document lists q and the case-insensitive operators', async () => {
      const doc = (await get('/openapi.json')).json();
      const params = doc.paths['/books'].get.parameters.map((p: any) => p.name ?? p.$ref);
      for (const name of ['q', 'title[icontains]', 'title[istartsWith]', 'expand']) assert.ok(params.includes(name), name);
      assert.ok(!doc.paths['/plain'].get.parameters.some((p: any) => p.name === 'q'));
    });
  });
}

const pg = engines.find((e) => e.name === 'postgres');
if (pg) {
  describe('search index (postgres)', () => {
    test('search fields get a pg_trgm index that a q= search uses, kept in step with the config', async () => {
      const server = await testServer(pg, config);
      const db = (server.context.store as any).engine?.pool;
      const planOf = async (sqlText: string, params: unknown[]) => {
        const client = await db.connect();
        try {
          await client.query('SET enable_seqscan = off');
          return (await client.query(`EXPLAIN ${sqlText}`, params)).rows.map((r: any) => r['QUERY PLAN']).join('\n');
        } finally {
          await client.query('RESET enable_seqscan');
          client.release();
        }
      };
      try {
        assert.ok(db, 'the PostgreSQL engine exposes its pool');
        const indexes = (await db.query(`SELECT indexname FROM pg_indexes WHERE tablename = 'books' AND schemaname = current_schema()`)).rows.map((r: any) => r.indexname).sort();
        assert.deepEqual(indexes.filter((n: string) => n.endsWith('_s')), ['rw_books_author_s', 'rw_books_title_s']);
        const plan = await planOf(`SELECT * FROM books WHERE rw_fold(title) LIKE rw_fold($1) ESCAPE '\\'`, ['%crime%']);
        assert.match(plan, /rw_books_title_s/);
      } finally {
        await server.close();
      }
    });
  });
}
