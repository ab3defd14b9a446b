import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { FieldConfig } from '../config/types.js';
import { defineResources } from '../core/resource.js';
import { engines } from '../test-support/engines.js';
import { SchemaSyncError } from './errors.js';
import { openStore } from './open.js';

const notesWith = (fields: Record<string, FieldConfig>) => defineResources({ resources: { notes: { fields: { text: { type: 'string' }, ...fields }, search: false } } })[0];
// search: false keeps q='s trigram indexes (PostgreSQL) out of the applied lines these tests compare.
const v1 = notesWith({});

for (const engine of engines) {
  describe(`schema sync: required fields and existing records (${engine.name})`, () => {
    test('a new required field with a default is back-filled into existing records, once, with a new version', async () => {
      const url = engine.freshUrl();
      const a = await openStore(url);
      const b = await openStore(url);
      try {
        await a.sync([v1], { allowDestructive: false });
        const one = await a.insert(v1, { text: 'one' });
        const two = await a.insert(v1, { text: 'two' });
        const v2 = notesWith({ status: { type: 'enum', values: ['open', 'done'], required: true, default: 'open' }, meta: { type: 'json', required: true, default: { tags: [] } } });
        // Two nodes starting at once: the sync runs under the schema lock, so only one back-fills.
        const reports = await Promise.all([a.sync([v2], { allowDestructive: false }), b.sync([v2], { allowDestructive: false })]);
        const applied = reports.flatMap((r) => r.applied);
        assert.deepEqual(applied.filter((l) => l.startsWith('back-filled')), [
          'back-filled notes.status with its default "open" in 2 existing records (now required)',
          'back-filled notes.meta with its default {"tags":[]} in 2 existing records (now required)',
        ]);
        for (const r of [one, two]) {
          const now = await b.get(v2, r.id);
          assert.deepEqual(now?.data, { text: r.data.text, status: 'open', meta: { tags: [] } });
          assert.equal(now?.version, 2, 'the representation changed, so the version (and the ETag) did');
        }
        assert.deepEqual((await a.sync([v2], { allowDestructive: false })).applied, [], 'nothing left to do');
      } finally {
        await b.close();
        await a.close();
      }
    });

    test('a new required field without a default is refused while records exist, naming the field, the count and the fixes', async () => {
      const store = await openStore(engine.freshUrl());
      try {
        await store.sync([v1], { allowDestructive: false });
        // On an empty table there is nothing to fill: a required field is simply added.
        const empty = notesWith({ title: { type: 'string', required: true } });
        assert.deepEqual((await store.sync([empty], { allowDestructive: false })).applied, ['added field notes.title']);
        await store.insert(empty, { text: 'a', title: 't' });
        await store.insert(empty, { text: 'b', title: 't' });
        await store.insert(empty, { text: 'c', title: 't' });
        const v3 = notesWith({ title: { type: 'string', required: true }, owner: { type: 'string', required: true } });
        await assert.rejects(store.sync([v3], { allowDestructive: false }), (err: unknown) => {
          assert.ok(err instanceof SchemaSyncError);
          assert.deepEqual(err.problems, [
            'resources.notes.fields.owner: is required, but 3 existing records of notes have no value for it. Either give the field a `default` (existing records are filled in with it), or fill in those records (or make the field optional) before requiring it',
          ]);
          assert.doesNotMatch(err.message, /allowDestructiveMigrations/, 'nothing destructive was asked for');
          return true;
        });
        // Nothing was half-applied: the same config without the new field still has nothing to do.
        assert.deepEqual((await store.sync([empty], { allowDestructive: false })).applied, []);
      } finally {
        await store.close();
      }
    });

    test('an optional field made required: refused while some records lack it, back-filled only where missing with a default', async () => {
      const store = await openStore(engine.freshUrl());
      try {
        await store.sync([v1], { allowDestructive: false });
        const kept = await store.insert(v1, { text: 'kept' });
        const missing = await store.insert(v1, { text: null });
        const strict = defineResources({ resources: { notes: { fields: { text: { type: 'string', required: true } }, search: false } } })[0];
        await assert.rejects(store.sync([strict], { allowDestructive: false }), /fields\.text: is required, but 1 existing record of notes has no value for it/);
        const withDefault = defineResources({ resources: { notes: { fields: { text: { type: 'string', required: true, default: '(none)' } }, search: false } } })[0];
        assert.deepEqual((await store.sync([withDefault], { allowDestructive: false })).applied, ['back-filled notes.text with its default "(none)" in 1 existing record (now required)']);
        assert.equal((await store.get(withDefault, kept.id))?.data.text, 'kept');
        assert.equal((await store.get(withDefault, kept.id))?.version, 1, 'a record that had a value is untouched');
        assert.equal((await store.get(withDefault, missing.id))?.data.text, '(none)');
        // Required without a default from now on is fine: every record has a value.
        assert.deepEqual((await store.sync([strict], { allowDestructive: false })).applied, []);
      } finally {
        await store.close();
      }
    });
  });
}
