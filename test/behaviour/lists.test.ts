import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RestwellServer } from '../../src/app/server.js';
import { engines, testServer } from '../../src/test-support/test-server.js';

const json = { 'content-type': 'application/json' };
const config = {
  resources: {
    people: {
      fields: {
        name: { type: 'string', required: true, index: true },
        age: { type: 'integer', index: true },
        score: { type: 'number' },
        active: { type: 'boolean' },
        born: { type: 'datetime' },
        role: { type: 'enum', values: ['admin', 'user'] },
        tags: { type: 'json' },
      },
      access: { read: 'public', write: 'public' },
    },
  },
};
const people = [
  { name: 'Alice', age: 30, score: 1.5, active: true, born: '1990-01-01T00:00:00Z', role: 'admin' },
  { name: 'Bob', age: 25, score: 2.5, active: false, born: '1995-06-15T12:00:00Z', role: 'user' },
  { name: 'Carol', age: 35, score: null, active: true, born: '1985-03-03T00:00:00Z', role: 'user' },
  { name: 'Dave', age: null, score: 0.5, active: null, born: null, role: null },
  { name: 'Eve_1%', age: 25, score: 9, active: false, born: '2000-12-31T23:59:59Z', role: 'admin' },
];

for (const engine of engines) {
  describe(`lists (${engine.name})`, () => {
    let server: RestwellServer;
    const inject = (opts: Record<string, unknown>) => server.app.inject(opts as any);
    const names = async (query: string) => {
      const res = await inject({ method: 'GET', url: `/people?${query}` });
      assert.equal(res.statusCode, 200, `${query}: ${res.body}`);
      return res.json()._embedded.people.map((p: any) => p.name);
    };
    before(async () => {
      server = await testServer(engine, config);
      for (const p of people) assert.equal((await inject({ method: 'POST', url: '/people', headers: json, payload: p })).statusCode, 201);
    });
    after(() => server.close());

    test('each filter operator', async () => {
      assert.deepEqual(await names('age=25'), ['Bob', 'Eve_1%']);
      assert.deepEqual(await names('age[eq]=25'), ['Bob', 'Eve_1%']);
      assert.deepEqual(await names('age[ne]=25'), ['Alice', 'Carol', 'Dave'], 'ne includes records with no value');
      assert.deepEqual(await names('age[lt]=30'), ['Bob', 'Eve_1%']);
      assert.deepEqual(await names('age[lte]=30'), ['Alice', 'Bob', 'Eve_1%']);
      assert.deepEqual(await names('age[gt]=30'), ['Carol']);
      assert.deepEqual(await names('age[gte]=30'), ['Alice', 'Carol']);
      assert.deepEqual(await names('name[in]=Alice,Dave,Zed'), ['Alice', 'Dave']);
      assert.deepEqual(await names('name[contains]=a'), ['Carol', 'Dave'], 'contains is case-sensitive');
      assert.deepEqual(await names('name[startsWith]=Ca'), ['Carol']);
      assert.deepEqual(await names(`name[startsWith]=${encodeURIComponent('Eve_1%')}`), ['Eve_1%'], 'LIKE wildcards in values are literal');
      assert.deepEqual(await names('name[contains]=_'), ['Eve_1%']);
      assert.deepEqual(await names('active=true'), ['Alice', 'Carol']);
      assert.deepEqual(await names('score[gt]=1'), ['Alice', 'Bob', 'Eve_1%']);
      assert.deepEqual(await names('born[lt]=1991-01-01T00:00:00%2B00:00'), ['Alice', 'Carol']);
      assert.deepEqual(await names('role=admin&age[gt]=26'), ['Alice'], 'filters combine with AND');
      assert.deepEqual(await names('age[gte]=25&age[lte]=29'), ['Bob', 'Eve_1%'], 'a field may be filtered twice');
      assert.deepEqual(await names('createdAt[gte]=2000-01-01T00:00:00Z&limit=100'), people.map((p) => p.name));
    });

    test('bad filters are 400 problems naming the field or operator', async () => {
      const cases: Array<[string, RegExp]> = [
        ['colour=red', /"colour"/],
        ['age[like]=2', /unknown operator "like"/],
        ['age=old', /"old" is not an integer/],
        ['tags=x', /no filterable field "tags"/],
        ['age[contains]=2', /contains applies only to text fields/],
        ['role=boss', /not one of admin, user/],
        ['active=yes', /true or false/],
        ['sort=colour', /no sortable field "colour"/],
        ['fields=colour', /no field "colour"/],
        ['limit=101', /limit must be an integer from 1 to 100/],
      ];
      for (const [query, detail] of cases) {
        const res = await inject({ method: 'GET', url: `/people?${query}` });
        assert.equal(res.statusCode, 400, query);
        assert.match(res.json().detail, detail, query);
      }
    });

    test('sort ascending and descending, several keys, NULL first ascending and last descending', async () => {
      assert.deepEqual(await names('sort=name'), ['Alice', 'Bob', 'Carol', 'Dave', 'Eve_1%']);
      assert.deepEqual(await names('sort=-name'), ['Eve_1%', 'Dave', 'Carol', 'Bob', 'Alice']);
      assert.deepEqual(await names('sort=age,-name'), ['Dave', 'Eve_1%', 'Bob', 'Alice', 'Carol']);
      assert.deepEqual(await names('sort=-age,name'), ['Carol', 'Alice', 'Bob', 'Eve_1%', 'Dave']);
      assert.deepEqual(await names('sort=-createdAt'), ['Eve_1%', 'Dave', 'Carol', 'Bob', 'Alice']);
    });

    test('sparse fieldsets keep id and links', async () => {
      const res = await inject({ method: 'GET', url: '/people?fields=name&sort=name&limit=1' });
      assert.deepEqual(res.json()._embedded.people[0], { id: 1, name: 'Alice', _links: { self: { href: '/people/1' }, collection: { href: '/people' } } });
    });

    test('keyset pages with first/next/prev links in _links and the Link header; optional total', async () => {
      for (const sort of ['name', '-age', 'age,-name', '-born', 'active,score']) {
        const all = await names(`sort=${sort}&limit=100`);
        const seen: string[] = [];
        let url = `/people?sort=${sort}&limit=2&total=true`;
        let pages = 0;
        let last: any;
        while (url) {
          const res = await inject({ method: 'GET', url });
          last = res.json();
          assert.equal(last.total, 5);
          seen.push(...last._embedded.people.map((p: any) => p.name));
          if (last._links.next) assert.match(String(res.headers.link), /rel="next"/);
          url = last._links.next?.href;
          pages++;
        }
        assert.deepEqual(seen, all, `sort=${sort}: every record once, in order`);
        assert.equal(pages, 3);
        // Walk back with prev from the last page.
        const back: string[] = [...last._embedded.people.map((p: any) => p.name)];
        url = last._links.prev?.href;
        while (url) {
          const page = (await inject({ method: 'GET', url })).json();
          back.unshift(...page._embedded.people.map((p: any) => p.name));
          url = page._links.prev?.href;
        }
        assert.deepEqual(back, all, `sort=${sort}: prev links walk back to the start`);
      }
      const other = (await inject({ method: 'GET', url: '/people?sort=name&limit=2' })).json()._links.next.href.replace('sort=name', 'sort=-name');
      assert.equal((await inject({ method: 'GET', url: other })).statusCode, 400, 'a cursor is bound to its sort');
    });

    test('paging through a whole collection while records are inserted misses and repeats nothing', async () => {
      const before = new Set<number>();
      let url = '/people?limit=3&sort=name';
      const seen: number[] = [];
      const all = (await inject({ method: 'GET', url: '/people?limit=100' })).json()._embedded.people.map((p: any) => p.id);
      all.forEach((id: number) => before.add(id));
      let i = 0;
      while (url) {
        const [page] = await Promise.all([
          inject({ method: 'GET', url }),
          inject({ method: 'POST', url: '/people', headers: json, payload: { name: `Zz inserted ${i++}` } }),
        ]);
        const body = page.json();
        seen.push(...body._embedded.people.map((p: any) => p.id));
        url = body._links.next?.href;
      }
      assert.equal(new Set(seen).size, seen.length, 'no record repeated');
      for (const id of before) assert.ok(seen.includes(id), `record ${id} present before paging was not missed`);
    });
  });
}
