import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type pg from 'pg';
import { engines } from '../../test-support/engines.js';
import { createPool, parseTarget } from './postgres-pool.js';
import { postgresSize } from './postgres-size.js';

const postgres = engines.find((e) => e.name === 'postgres');

/**
 * The size query against event logs of every shape it may meet: one table, declarative partitions
 * (one of them in another schema), and inheritance children. The figures must be the sums of the
 * parts as PostgreSQL itself reports them.
 */
describe('the PostgreSQL store measures itself from the catalog', { skip: !postgres && 'no TEST_DATABASE_URL' }, () => {
  let pool: pg.Pool;
  let schema: string;
  const other = `rw_elsewhere_${Math.random().toString(36).slice(2, 10)}`;
  before(async () => {
    const target = parseTarget(postgres!.freshUrl());
    schema = target.schema!;
    pool = createPool(target, () => undefined);
    await pool.query(`CREATE SCHEMA ${schema}; CREATE SCHEMA ${other}`);
  });
  after(async () => {
    await pool.query(`DROP SCHEMA IF EXISTS ${other} CASCADE; DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await pool.end();
  });

  const total = async (relation: string) => Number((await pool.query(`SELECT pg_total_relation_size('${relation}') AS n`)).rows[0].n);
  const fill = (table: string, from: number, to: number) => pool.query(`INSERT INTO ${table} (seq, data) SELECT g, repeat('e', 200) FROM generate_series(${from}, ${to}) g`);
  const reset = () => pool.query(`DROP TABLE IF EXISTS _rw_events CASCADE; DROP TABLE IF EXISTS ${other}._rw_events_far; DROP TABLE IF EXISTS records`);

  test('one table: its bytes and span, and every table of the schema in the database\'s bytes', async () => {
    await reset();
    await pool.query(`CREATE TABLE _rw_events (seq bigint PRIMARY KEY, data text); CREATE TABLE records (id int PRIMARY KEY, body text)`);
    assert.deepEqual(await postgresSize(pool), { databaseBytes: (await total('records')) + (await total('_rw_events')), eventBytes: await total('_rw_events'), eventRows: 0 });
    await fill('_rw_events', 11, 500);
    await pool.query(`INSERT INTO records SELECT g, repeat('r', 100) FROM generate_series(1, 300) g`);
    const size = await postgresSize(pool);
    assert.equal(size.eventRows, 490);
    assert.equal(size.eventBytes, await total('_rw_events'));
    assert.ok(size.eventBytes! > 490 * 200, 'the rows are in the figure');
    assert.equal(size.databaseBytes, (await total('_rw_events')) + (await total('records')));
  });

  test('declarative partitions, one in another schema, are summed under the log', async () => {
    await reset();
    await pool.query(`CREATE TABLE _rw_events (seq bigint NOT NULL, data text, PRIMARY KEY (seq)) PARTITION BY RANGE (seq);
      CREATE TABLE _rw_events_1 PARTITION OF _rw_events FOR VALUES FROM (1) TO (1001);
      CREATE TABLE _rw_events_2 PARTITION OF _rw_events FOR VALUES FROM (1001) TO (2001) PARTITION BY RANGE (seq);
      CREATE TABLE _rw_events_2a PARTITION OF _rw_events_2 FOR VALUES FROM (1001) TO (1501);
      CREATE TABLE ${other}._rw_events_far PARTITION OF _rw_events_2 FOR VALUES FROM (1501) TO (2001);`);
    await fill('_rw_events', 1, 1800);
    const parts = (await total('_rw_events_1')) + (await total('_rw_events_2a')) + (await total(`${other}._rw_events_far`));
    const size = await postgresSize(pool);
    assert.equal(size.eventRows, 1800);
    assert.equal(size.eventBytes, parts);
    assert.ok(parts > 1800 * 200);
    assert.equal(size.databaseBytes, parts, 'the partition elsewhere counts once, with the log');
  });

  test('inheritance children are summed under the log', async () => {
    await reset();
    await pool.query(`CREATE TABLE _rw_events (seq bigint PRIMARY KEY, data text); CREATE TABLE ${other}._rw_events_far () INHERITS (_rw_events)`);
    await fill('_rw_events', 500, 900);
    await fill(`${other}._rw_events_far`, 1, 499);
    const size = await postgresSize(pool);
    assert.equal(size.eventRows, 900);
    assert.equal(size.eventBytes, (await total('_rw_events')) + (await total(`${other}._rw_events_far`)));
  });
});
