import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type pg from 'pg';
import { defineResources } from '../../core/resource.js';
import { engines } from '../../test-support/engines.js';
import { openStore } from '../open.js';
import type { Row } from '../statements.js';
import { ByIdReader, MAX_IDS, type Queryable } from './postgres-by-id.js';

const [notes, tags] = defineResources({ resources: { notes: { fields: { text: { type: 'string' } } }, tags: { id: 'uuid', fields: { label: { type: 'string' } } } } });

/** A pool that answers from `tables` and records every statement it is given. */
function fakePool(tables: Record<string, Row[]>, fail?: (config: pg.QueryConfig<unknown[]>) => Error | undefined) {
  const statements: pg.QueryConfig<unknown[]>[] = [];
  const pool: Queryable = {
    async query(config) {
      statements.push(config);
      const error = fail?.(config);
      if (error) throw error;
      const table = /from "(\w+)"/.exec(config.text)![1];
      const ids = config.values![0] as unknown[];
      return { rows: tables[table].filter((r) => ids.includes(r.id)) };
    },
  };
  return { pool, statements };
}

const row = (id: number | string, field: string, value: string) => ({ id, _version: 1, _gen: 'g', _created_at: 't', _updated_at: 't', _owner: null, [field]: value });

describe('ByIdReader', () => {
  test('reads asked in one turn go out as one named statement per resource; a repeated id is asked once, and each reader gets a record of its own', async () => {
    const { pool, statements } = fakePool({ notes: [row(1, 'text', 'one'), row(2, 'text', 'two')], tags: [row('u1', 'label', 'x')] });
    const reader = new ByIdReader(pool);
    const [a, b, again, missing, tag] = await Promise.all([reader.get(notes, 1), reader.get(notes, 2), reader.get(notes, 1), reader.get(notes, 9), reader.get(tags, 'u1')]);
    assert.deepEqual([a?.data.text, b?.data.text, again?.data.text, missing, tag?.data.label], ['one', 'two', 'one', undefined, 'x']);
    assert.notEqual(a, again, 'readers of one id do not share an object');
    assert.deepEqual(
      statements.map((s) => s.values),
      [[[1, 2, 9]], [['u1']]],
    );
    assert.ok(statements.every((s) => s.name?.startsWith('rw_by_id_')));
    assert.match(statements[0].text, /^select "id", "_version", "_gen", "_created_at", "_updated_at", "_owner", "text" from "notes" where "id" = any\(\$1\)$/);
  });

  test('a read asked after a statement went out goes in a later one, so it sees what committed since', async () => {
    const tables = { notes: [row(1, 'text', 'one')] };
    const { pool, statements } = fakePool(tables);
    const reader = new ByIdReader(pool);
    assert.equal((await reader.get(notes, 1))?.data.text, 'one');
    tables.notes = [row(1, 'text', 'changed')];
    assert.equal((await reader.get(notes, 1))?.data.text, 'changed');
    assert.equal(statements.length, 2);
  });

  test(`more than ${MAX_IDS} ids are split between statements`, async () => {
    const { pool, statements } = fakePool({ notes: [] });
    const reader = new ByIdReader(pool);
    const ids = Array.from({ length: MAX_IDS + 1 }, (_, i) => i + 1);
    assert.ok((await Promise.all(ids.map((id) => reader.get(notes, id)))).every((r) => r === undefined));
    assert.deepEqual(statements.map((s) => (s.values![0] as unknown[]).length), [MAX_IDS, 1]);
  });

  test('a failing statement rejects every read in it, and only those', async () => {
    const { pool } = fakePool({ notes: [row(1, 'text', 'one')], tags: [row('u1', 'label', 'x')] }, (s) => (s.text.includes('"notes"') ? new Error('boom') : undefined));
    const reader = new ByIdReader(pool);
    const results = await Promise.allSettled([reader.get(notes, 1), reader.get(notes, 2), reader.get(tags, 'u1')]);
    assert.deepEqual(results.map((r) => r.status), ['rejected', 'rejected', 'fulfilled']);
  });

  test('two definitions of one resource get statements of different names (a connection prepares one text per name)', async () => {
    const [wider] = defineResources({ resources: { notes: { fields: { text: { type: 'string' }, more: { type: 'string' } } } } });
    const { pool, statements } = fakePool({ notes: [] });
    const reader = new ByIdReader(pool);
    await reader.get(notes, 1);
    await reader.get(wider, 1);
    assert.notEqual(statements[0].name, statements[1].name);
  });
});

const postgres = engines.find((e) => e.name === 'postgres');

describe('reads by id on PostgreSQL', { skip: postgres ? false : 'TEST_DATABASE_URL is not set' }, () => {
  test('concurrent reads of integer and uuid ids each get their record, or nothing', async () => {
    const store = await openStore(postgres!.freshUrl());
    try {
      await store.sync([notes, tags], { allowDestructive: false });
      const created = await Promise.all(['a', 'b', 'c'].map((text) => store.insert(notes, { text })));
      const tag = await store.insert(tags, { label: 'x' });
      const reads = await Promise.all([...created.map((r) => store.get(notes, r.id)), store.get(notes, 999), store.get(tags, tag.id), store.get(tags, '0190a000-0000-7000-8000-000000000000')]);
      assert.deepEqual(
        reads.map((r) => r && { id: r.id, version: r.version, data: r.data }),
        [...created.map((r) => ({ id: r.id, version: 1, data: r.data })), undefined, { id: tag.id, version: 1, data: { label: 'x' } }, undefined],
      );
      assert.deepEqual(reads[0], created[0]);
    } finally {
      await store.close();
    }
  });

  test('a node keeps reading after another node’s schema sync adds a column to the table it reads', async () => {
    const url = postgres!.freshUrl();
    const [wider] = defineResources({ resources: { notes: { fields: { text: { type: 'string' }, more: { type: 'string' } } } } });
    const a = await openStore(url);
    const b = await openStore(url);
    try {
      await a.sync([notes], { allowDestructive: false });
      const { id } = await a.insert(notes, { text: 'one' });
      // Read on the connection(s) that will read again after the change, so their statement is prepared by then.
      for (let i = 0; i < 3; i++) assert.equal((await a.get(notes, id))?.data.text, 'one');
      await b.sync([wider], { allowDestructive: false });
      for (let i = 0; i < 3; i++) assert.equal((await a.get(notes, id))?.data.text, 'one');
      assert.deepEqual((await b.get(wider, id))?.data, { text: 'one', more: null });
    } finally {
      await b.close();
      await a.close();
    }
  });
});
