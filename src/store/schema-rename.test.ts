import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { FieldConfig } from '../config/types.js';
import { ConflictError, DomainError } from '../core/errors.js';
import { defineResources } from '../core/resource.js';
import { engines, type TestEngine } from '../test-support/engines.js';
import { rawSql } from '../test-support/raw-sql.js';
import { SchemaSyncError } from './errors.js';
import { openStore } from './open.js';

const people = (fields: Record<string, FieldConfig>, search: string[] | false = false) => defineResources({ resources: { people: { fields: { name: { type: 'string' }, ...fields }, search } } })[0];
const v1 = people({ phone: { type: 'string', unique: true } }, ['phone']);
const renamed = people({ mobile: { type: 'string', unique: true, renamedFrom: 'phone' } }, ['mobile']);

/** The names of the indexes on the people table, as the database lists them. */
async function indexesOf(engine: TestEngine, url: string): Promise<string[]> {
  const rows =
    engine.name === 'sqlite'
      ? await rawSql(engine, url, "select name from sqlite_master where type = 'index' and tbl_name = 'people' and name like 'rw_%'")
      : await rawSql(engine, url, "select indexname as name from pg_indexes where schemaname = current_schema() and tablename = 'people' and indexname like 'rw_%'");
  return rows.map((r) => r.name).sort();
}

for (const engine of engines) {
  describe(`schema sync: renamed fields (${engine.name})`, () => {
    test('a rename keeps every value and the unique index, under the new name, and restarting with it is a no-op', async () => {
      const url = engine.freshUrl();
      const first = await openStore(url);
      let ann, bob;
      try {
        await first.sync([v1], { allowDestructive: false });
        ann = await first.insert(v1, { name: 'Ann', phone: '555-0101' });
        bob = await first.insert(v1, { name: 'Bob', phone: null });
      } finally {
        await first.close();
      }
      const before = await indexesOf(engine, url);
      assert.ok(before.includes('rw_people_phone_u'), before.join());

      const store = await openStore(url);
      try {
        const report = await store.sync([renamed], { allowDestructive: false });
        assert.ok(report.applied.includes('renamed field people.phone to mobile (values kept)'), report.applied.join('\n'));
        assert.deepEqual(report.destructive, []);
        assert.deepEqual((await store.get(renamed, ann.id))?.data, { name: 'Ann', mobile: '555-0101' });
        assert.deepEqual((await store.get(renamed, bob.id))?.data, { name: 'Bob', mobile: null });
        assert.equal((await store.get(renamed, ann.id))?.version, 1, 'a rename is no write to the records');
        // The unique index came along: a second record with Ann's number is refused.
        await assert.rejects(store.insert(renamed, { name: 'Eve', mobile: '555-0101' }), ConflictError);
        const after = await indexesOf(engine, url);
        assert.ok(after.includes('rw_people_mobile_u') && !after.some((n) => n.includes('phone')), after.join());
        assert.deepEqual((await store.sync([renamed], { allowDestructive: false })).applied, [], 'already renamed: nothing to do');
      } finally {
        await store.close();
      }
      // A later start with renamedFrom still in the config changes nothing either.
      const again = await openStore(url);
      try {
        assert.deepEqual(await again.sync([renamed], { allowDestructive: false }), { applied: [], destructive: [], notes: [] });
        assert.equal((await again.get(renamed, ann.id))?.data.mobile, '555-0101');
      } finally {
        await again.close();
      }
    });

    test('several nodes starting at once rename once', async () => {
      const url = engine.freshUrl();
      const stores = await Promise.all([openStore(url), openStore(url), openStore(url)]);
      try {
        await stores[0].sync([v1], { allowDestructive: false });
        const ann = await stores[0].insert(v1, { name: 'Ann', phone: '555-0101' });
        const reports = await Promise.all(stores.map((s) => s.sync([renamed], { allowDestructive: false })));
        assert.equal(reports.flatMap((r) => r.applied).filter((l) => l.startsWith('renamed')).length, 1, JSON.stringify(reports));
        for (const s of stores) assert.equal((await s.get(renamed, ann.id))?.data.mobile, '555-0101');
      } finally {
        await Promise.all(stores.map((s) => s.close()));
      }
    });

    test('a chain of renames: whichever earlier name is stored is renamed', async () => {
      const url = engine.freshUrl();
      const store = await openStore(url);
      try {
        await store.sync([v1], { allowDestructive: false });
        const ann = await store.insert(v1, { name: 'Ann', phone: '1' });
        const tel = people({ tel: { type: 'string', unique: true, renamedFrom: 'phone' } });
        await store.sync([tel], { allowDestructive: false });
        const cell = people({ cell: { type: 'string', unique: true, renamedFrom: ['tel', 'phone'] } });
        assert.ok((await store.sync([cell], { allowDestructive: false })).applied.includes('renamed field people.tel to cell (values kept)'));
        assert.equal((await store.get(cell, ann.id))?.data.cell, '1');
      } finally {
        await store.close();
      }
    });

    test('a rename with other changes: the new options apply to the renamed column', async () => {
      const url = engine.freshUrl();
      const store = await openStore(url);
      try {
        const plain = people({ phone: { type: 'string' } });
        await store.sync([plain], { allowDestructive: false });
        const ann = await store.insert(plain, { name: 'Ann', phone: '1' });
        await store.insert(plain, { name: 'Bob', phone: '2' });
        // Renamed, made unique, indexed for search and required (every record has a value) at once.
        const stricter = people({ mobile: { type: 'string', unique: true, required: true, renamedFrom: 'phone' } }, ['mobile']);
        await store.sync([stricter], { allowDestructive: false });
        assert.equal((await store.get(stricter, ann.id))?.data.mobile, '1');
        await assert.rejects(store.insert(stricter, { name: 'Eve', mobile: '2' }), ConflictError);
        // Renamed and retyped: the values go, which is destructive and refused unless allowed.
        const retyped = people({ number: { type: 'integer', renamedFrom: 'mobile' } });
        await assert.rejects(store.sync([retyped], { allowDestructive: false }), (err: unknown) => {
          assert.ok(err instanceof SchemaSyncError);
          assert.deepEqual(err.problems, ['resources.people.fields.number.type: changing string to integer deletes its stored values']);
          return true;
        });
        assert.equal((await store.get(stricter, ann.id))?.data.mobile, '1', 'nothing was half-applied: the rename was rolled back too');
        const report = await store.sync([retyped], { allowDestructive: true });
        assert.deepEqual(report.destructive, ['dropped people.number (type changed from string to integer; allowDestructiveMigrations is set): 2 records lose their values']);
        assert.deepEqual((await store.get(retyped, ann.id))?.data, { name: 'Ann', number: null });
      } finally {
        await store.close();
      }
    });

    test('a renamed reference keeps its values and still refers to its target', async () => {
      const store = await openStore(engine.freshUrl());
      try {
        const withRef = (field: string, renamedFrom?: string) =>
          defineResources({ resources: { teams: { fields: { label: { type: 'string' } }, search: false }, people: { fields: { [field]: { type: 'reference', to: 'teams', index: true, ...(renamedFrom ? { renamedFrom } : {}) } }, search: false } } });
        const [teams, v1People] = withRef('team');
        await store.sync([teams, v1People], { allowDestructive: false });
        const red = await store.insert(teams, { label: 'red' });
        const ann = await store.insert(v1People, { team: red.id });
        const [, renamedPeople] = withRef('squad', 'team');
        assert.deepEqual((await store.sync([teams, renamedPeople], { allowDestructive: false })).applied, [
          'drop index people.team',
          'renamed field people.team to squad (values kept)',
          'create index people.squad',
        ]);
        assert.equal((await store.get(renamedPeople, ann.id))?.data.squad, red.id);
        // The foreign key came along: a reference to no team is refused as the API refuses it (422), not by a raw error.
        await assert.rejects(store.insert(renamedPeople, { squad: 999 }), DomainError);
      } finally {
        await store.close();
      }
    });

    test('both the old and the new field stored: refused, saying what to do, with nothing changed', async () => {
      const url = engine.freshUrl();
      const store = await openStore(url);
      try {
        const both = people({ phone: { type: 'string' }, mobile: { type: 'string' } });
        await store.sync([both], { allowDestructive: false });
        const ann = await store.insert(both, { name: 'Ann', phone: '1', mobile: '2' });
        const mobileOnly = people({ mobile: { type: 'string', renamedFrom: 'phone' } });
        for (const allowDestructive of [false, true]) {
          await assert.rejects(store.sync([mobileOnly], { allowDestructive }), (err: unknown) => {
            assert.ok(err instanceof SchemaSyncError);
            assert.equal(err.problems.length, 1);
            assert.match(err.problems[0], /^resources\.people\.fields\.mobile\.renamedFrom: the database holds the fields phone and mobile of people, each with its own values, so none can be renamed to mobile\. Either remove renamedFrom/);
            assert.doesNotMatch(err.message, /Set allowDestructiveMigrations/, 'allowing data loss would not help');
            return true;
          });
        }
        assert.deepEqual((await store.get(both, ann.id))?.data, { name: 'Ann', phone: '1', mobile: '2' });
      } finally {
        await store.close();
      }
    });
  });

  describe(`schema sync: unique fields and duplicate values (${engine.name})`, () => {
    test('making a field unique while records share values is refused with the counts, an example and the fixes', async () => {
      const store = await openStore(engine.freshUrl());
      try {
        const plain = people({ email: { type: 'string' }, tags: { type: 'json' } });
        await store.sync([plain], { allowDestructive: false });
        const ids: Array<string | number> = [];
        for (const [email, tags] of [['a@x.org', ['a']], ['a@x.org', ['b']], ['b@x.org', ['a']], ['a@x.org', null], ['b@x.org', null], ['c@x.org', null], [null, null], [null, null]]) {
          ids.push((await store.insert(plain, { name: 'n', email, tags })).id);
        }
        const unique = people({ email: { type: 'string', unique: true }, tags: { type: 'json', unique: true } });
        await assert.rejects(store.sync([unique], { allowDestructive: false }), (err: unknown) => {
          assert.ok(err instanceof SchemaSyncError);
          assert.deepEqual(err.problems, [
            `resources.people.fields.email: is unique, but existing records of people share values: 2 values are held by more than one record (5 records in all), e.g. "a@x.org" by /people/${ids[0]}, /people/${ids[1]} and /people/${ids[3]}. ` +
              'Either change or delete the duplicates through the API (PATCH or DELETE those records) so each value is held once, or leave out `unique`',
            `resources.people.fields.tags: is unique, but existing records of people share values: 1 value is held by more than one record (2 records in all), e.g. ["a"] by /people/${ids[0]} and /people/${ids[2]}. ` +
              'Either change or delete the duplicates through the API (PATCH or DELETE those records) so each value is held once, or leave out `unique`',
          ]);
          assert.doesNotMatch(err.message, /allowDestructiveMigrations|UNIQUE constraint|duplicate key/);
          return true;
        });
        // Once the duplicates are gone, the same config starts (NULLs never clash).
        for (const id of [ids[1], ids[2], ids[3], ids[4]]) await store.mutate(plain, id, () => ({ delete: true }));
        assert.deepEqual((await store.sync([unique], { allowDestructive: false })).applied, ['create index people.email (unique)', 'create index people.tags (unique)']);
      } finally {
        await store.close();
      }
    });

    test('an example value held by many records names the first few', async () => {
      const store = await openStore(engine.freshUrl());
      try {
        const plain = people({ code: { type: 'integer' } });
        await store.sync([plain], { allowDestructive: false });
        const ids: Array<string | number> = [];
        for (let i = 0; i < 7; i++) ids.push((await store.insert(plain, { name: 'n', code: 7 })).id);
        await assert.rejects(
          store.sync([people({ code: { type: 'integer', unique: true } })], { allowDestructive: false }),
          new RegExp(`1 value is held by more than one record \\(7 records in all\\), e\\.g\\. 7 by ${ids.slice(0, 5).map((id) => `/people/${id}`).join(', ')} \\(and 2 more\\)\\.`),
        );
      } finally {
        await store.close();
      }
    });
  });

  describe(`schema sync: destructive changes report what they delete (${engine.name})`, () => {
    test('a removed field and an id type change, allowed, name the records that lose data', async () => {
      const store = await openStore(engine.freshUrl());
      try {
        const tags = defineResources({ resources: { tags: { fields: { label: { type: 'string' } }, search: false } } })[0];
        const both = people({ phone: { type: 'string' } });
        await store.sync([both, tags], { allowDestructive: false });
        await store.insert(both, { name: 'Ann', phone: '1' });
        await store.insert(both, { name: 'Bob' });
        await store.insert(tags, { label: 'x' });
        const uuidTags = defineResources({ resources: { tags: { id: 'uuid', fields: { label: { type: 'string' } }, search: false } } })[0];
        const report = await store.sync([people({}), uuidTags], { allowDestructive: true });
        assert.deepEqual(report.destructive, [
          'dropped people.phone (field removed from the config; allowDestructiveMigrations is set): 1 record loses its value',
          'recreated table tags empty (id type changed from integer to uuid; allowDestructiveMigrations is set): its 1 record is deleted',
        ]);
      } finally {
        await store.close();
      }
    });
  });
}
