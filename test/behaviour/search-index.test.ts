import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { resolveConfig } from '../../src/config/load.js';
import { createServer, type RestwellServer } from '../../src/app/server.js';
import { fold } from '../../src/core/fold.js';
import { engines } from '../../src/test-support/test-server.js';

/**
 * Search through the engines' indexes (SQLite FTS5 trigrams, PostgreSQL pg_trgm) answers exactly
 * what the definition says: a record matches when fold(field) contains (or starts with) fold(needle).
 * Random data and needles, checked against that definition computed here, page by page with totals.
 */

// Characters whose folding is tricky: case pairs, final and capital sigma, dotted İ (folds to two
// code points), LIKE wildcards and the escape, ß, an astral character.
const ALPHABET = ['a', 'A', 'b', 'B', 'σ', 'ς', 'Σ', 'İ', 'i', 'I', '%', '_', '\\', 'x', ' ', 'é', 'É', 'ß', '1', '😀'];

function random(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}
const rnd = random(20261127);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
const word = (min: number, max: number) => Array.from({ length: min + Math.floor(rnd() * (max - min + 1)) }, () => pick(ALPHABET)).join('');
/** A needle: a slice of a stored value (often at its start or end) with random case changes, or random text. */
function needle(values: string[]): string {
  if (rnd() < 0.25) return word(1, 5);
  const v = Array.from(pick(values));
  const len = 1 + Math.floor(rnd() * Math.min(6, v.length));
  const at = rnd() < 0.3 ? 0 : rnd() < 0.4 ? v.length - len : Math.floor(rnd() * (v.length - len + 1));
  return v
    .slice(at, at + len)
    .map((c) => (rnd() < 0.5 ? c.toUpperCase() : c))
    .join('');
}

const resource = (search: string[]) => ({
  fields: { name: { type: 'string' }, tag: { type: 'string' }, note: { type: 'string' }, grp: { type: 'integer', required: true } },
  search,
  access: { read: 'public', write: 'public' },
});
const configOf = (search: string[], extra: Record<string, unknown> = {}) => ({ resources: { items: resource(search) }, auth: { rateLimit: false }, ...extra });
const start = (url: string, config: Record<string, unknown>) => createServer(resolveConfig(config, { env: {}, overrides: { database: url } }), { logger: false });

interface Item {
  id: number;
  name: string | null;
  tag: string | null;
  note: string | null;
  grp: number;
}

for (const engine of engines) {
  describe(`search through the index answers as the definition (${engine.name})`, () => {
    let server: RestwellServer;
    const items: Item[] = [];
    const inject = (method: string, url: string, payload?: unknown) =>
      server.app.inject({ method: method as 'GET', url, ...(payload === undefined ? {} : { payload }), ...(method === 'PATCH' ? { headers: { 'content-type': 'application/merge-patch+json' } } : {}) });
    /** Every id a list URL returns, following next links, and the total of the first page. */
    const all = async (url: string): Promise<{ ids: number[]; total: number }> => {
      const ids: number[] = [];
      let next: string | undefined = url;
      let total = -1;
      while (next) {
        const res = await inject('GET', next);
        assert.equal(res.statusCode, 200, `${next}: ${res.body}`);
        const body = res.json();
        if (total < 0) total = body.total;
        ids.push(...body._embedded.items.map((r: { id: number }) => r.id));
        next = body._links.next?.href;
      }
      return { ids, total };
    };
    /** The ids matching `test`, as the URL (grp >= 2, sorted by -grp then id) pages them. */
    const expected = (test: (r: Item) => boolean) =>
      items
        .filter((r) => r.grp >= 2 && test(r))
        .sort((a, b) => b.grp - a.grp || a.id - b.id)
        .map((r) => r.id);
    const byId = (test: (r: Item) => boolean) => items.filter(test).map((r) => r.id);
    const has = (v: string | null, n: string) => v !== null && fold(v).includes(fold(n));
    const begins = (v: string | null, n: string) => v !== null && fold(v).startsWith(fold(n));

    before(async () => {
      server = await start(engine.freshUrl(), configOf(['name', 'tag']));
      // More than the 256 rows SQLite keeps pending before moving them into FTS5: both are searched.
      for (let i = 0; i < 300; i++) {
        const data = { name: rnd() < 0.05 ? null : word(0, 12), tag: rnd() < 0.3 ? null : word(1, 6), note: word(1, 8), grp: Math.floor(rnd() * 5) };
        const res = await inject('POST', '/items', data);
        assert.equal(res.statusCode, 201, res.body);
        items.push({ id: res.json().id, ...data });
      }
    });
    after(() => server.close());

    test('q=, icontains and istartsWith, with a filter, a sort, pages and the total', async () => {
      const values = items.flatMap((r) => [r.name, r.tag]).filter((v): v is string => !!v);
      for (let i = 0; i < 60; i++) {
        const n = needle(values);
        const e = encodeURIComponent(n);
        const base = 'grp[gte]=2&sort=-grp&limit=7&total=true';
        const cases: Array<[string, number[]]> = [
          [`/items?q=${e}&${base}`, expected((r) => has(r.name, n) || has(r.tag, n))],
          [`/items?name[icontains]=${e}&${base}`, expected((r) => has(r.name, n))],
          [`/items?name[istartsWith]=${e}&${base}`, expected((r) => begins(r.name, n))],
          [`/items?tag[istartsWith]=${e}&name[icontains]=${e}&${base}`, expected((r) => begins(r.tag, n) && has(r.name, n))],
          [`/items?note[icontains]=${e}&${base}`, expected((r) => has(r.note, n))],
          // id order, the default: SQLite walks the index's candidates in order, page after page.
          [`/items?q=${e}&limit=5&total=true`, byId((r) => has(r.name, n) || has(r.tag, n))],
          [`/items?name[istartsWith]=${e}&grp[lt]=3&limit=5&total=true`, byId((r) => begins(r.name, n) && r.grp < 3)],
        ];
        for (const [url, ids] of cases) {
          const got = await all(url);
          assert.deepEqual(got.ids, ids, `${url} (needle ${JSON.stringify(n)})`);
          assert.equal(got.total, ids.length, `${url}: total`);
        }
      }
    });

    test('the index follows every kind of write', async () => {
      const ids = async (q: string) => (await all(`/items?q=${encodeURIComponent(q)}&limit=50`)).ids;
      const created = (await inject('POST', '/items', { name: 'Zebra Ωmega', grp: 1 })).json();
      assert.deepEqual(await ids('ωMEG'), [created.id]);
      assert.equal((await inject('PUT', `/items/${created.id}`, { name: 'Quokka', tag: 'ΟΔΥΣΣΕΥΣ', grp: 1 })).statusCode, 200);
      assert.deepEqual(await ids('ωMEG'), []);
      assert.deepEqual(await ids('okk'), [created.id]);
      assert.deepEqual(await ids('σσευς'), [created.id]);
      assert.equal((await inject('PATCH', `/items/${created.id}`, { tag: null })).statusCode, 200);
      assert.deepEqual(await ids('σσευς'), []);
      assert.equal((await inject('PATCH', `/items/${created.id}`, { note: 'only the note changes' })).statusCode, 200);
      assert.deepEqual(await ids('okk'), [created.id]);
      assert.equal((await inject('DELETE', `/items/${created.id}`)).statusCode, 204);
      assert.deepEqual(await ids('okk'), []);

      const batch = await inject('POST', '/batch', {
        requests: [
          { method: 'POST', url: '/items', body: { name: 'Wombat one', grp: 1 } },
          { method: 'POST', url: '/items', body: { name: 'Wombat two', grp: 1 } },
        ],
      });
      assert.equal(batch.statusCode, 200, batch.body);
      const made = batch.json().responses.map((r: { body: { id: number } }) => r.body.id);
      assert.deepEqual(await ids('WOMBAT'), made);
      const removed = await inject('POST', '/batch', { requests: [{ method: 'DELETE', url: `/items/${made[0]}` }] });
      assert.equal(removed.statusCode, 200, removed.body);
      assert.deepEqual(await ids('wombat'), [made[1]]);

      // The first records were moved from pending into FTS5 long ago: changes reach them there too.
      const [first, second] = items;
      assert.equal((await inject('PATCH', `/items/${first.id}`, { name: 'Pelican Πέλεκυς', tag: 'Kestrel' })).statusCode, 200);
      assert.deepEqual(await ids('πέλεκυσ'), [first.id]);
      assert.deepEqual(await ids('kestrel'), [first.id]);
      assert.equal((await inject('PUT', `/items/${second.id}`, { name: 'Heron', grp: 1 })).statusCode, 200);
      assert.deepEqual(await ids('HERON'), [second.id]);
      assert.equal((await inject('DELETE', `/items/${second.id}`)).statusCode, 204);
      assert.deepEqual(await ids('heron'), []);
      assert.equal((await inject('DELETE', `/items/${first.id}`)).statusCode, 204);
      assert.deepEqual(await ids('pelican'), []);
    });
  });

  describe(`search indexes follow the config and bulk loads (${engine.name})`, () => {
    test('a field added to search, removed, renamed, and records imported', async () => {
      const url = engine.freshUrl();
      let server = await start(url, configOf(['name']));
      const post = async (data: Record<string, unknown>) => (await server.app.inject({ method: 'POST', url: '/items', payload: data })).json().id as number;
      const ids = async (query: string) => (await server.app.inject({ method: 'GET', url: `/items?${query}&limit=50` })).json()._embedded.items.map((r: { id: number }) => r.id);
      const a = await post({ name: 'Aardvark', tag: 'Pangolin', grp: 1 });
      try {
        assert.deepEqual(await ids('q=pango'), []);
        await server.close();
        server = await start(url, configOf(['name', 'tag']));
        const b = await post({ name: 'Badger', tag: 'Pangolin too', grp: 1 });
        assert.deepEqual(await ids('q=PANGO'), [a, b], 'records written before the field was searched are found');
        assert.deepEqual(await ids('tag[icontains]=olin%20t'), [b]);
        await server.close();
        server = await start(url, configOf(['tag']));
        assert.deepEqual(await ids('q=aardv'), []);
        assert.deepEqual(await ids('name[icontains]=aardv'), [a], 'a field no longer searched still filters, by a scan');
        await server.close();
        const renamed = { ...resource(['label']), fields: { name: { type: 'string' }, label: { type: 'string', renamedFrom: 'tag' }, note: { type: 'string' }, grp: { type: 'integer', required: true } } };
        server = await start(url, { resources: { items: renamed }, auth: { rateLimit: false } });
        assert.deepEqual(await ids('q=pangolin'), [a, b], 'a renamed field keeps its records searchable');
        const c = await post({ name: 'Civet', label: 'Pangolin three', grp: 1 });
        assert.deepEqual(await ids('label[istartsWith]=PANGOLIN'), [a, b, c]);
        await server.close();

        server = await start(engine.freshUrl(), configOf(['name', 'tag']));
        await server.context.store.importRecords(
          [{ resource: server.context.resources.get('items')!, records: [{ id: 7, data: { name: 'Imported Ibex', tag: null, note: null, grp: 1 } }, { id: 9, data: { name: 'Imported Impala', tag: 'x', note: null, grp: 1 } }] }],
          { replace: false },
        );
        assert.deepEqual(await ids('q=IMPORTED%20I'), [7, 9]);
        assert.deepEqual(await ids('name[istartsWith]=imported%20ib'), [7]);
      } finally {
        await server.close();
      }
    });
  });
}
