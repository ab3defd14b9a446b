import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type pg from 'pg';
import { engines } from '../../test-support/engines.js';
import { waitFor } from '../../test-support/wait-for.js';
import { createPool, parseTarget } from './postgres-pool.js';
import { createPostgresTables } from './postgres-tables.js';

const postgres = engines.find((e) => e.name === 'postgres');

/**
 * A node starting beside running ones creates Restwell's tables again (all IF NOT EXISTS). Its DDL
 * must never hold one lock while waiting for another, or a writer holding the second and wanting the
 * first makes a deadlock, which PostgreSQL breaks by failing the start or the write.
 */
describe('creating the system tables beside a running writer', { skip: !postgres && 'no TEST_DATABASE_URL' }, () => {
  let pool: pg.Pool;
  let schema: string;
  before(async () => {
    const target = parseTarget(postgres!.freshUrl());
    schema = target.schema!;
    pool = createPool(target, () => undefined);
    await createPostgresTables(pool, 1, schema);
  });
  after(async () => {
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool.end();
  });

  test('a writer that holds the event log and then draws a position is not deadlocked by a second start', async () => {
    const writer = await pool.connect();
    try {
      // As an event insert does: the log's lock first, the sequence's when the default is evaluated.
      await writer.query('BEGIN');
      await writer.query('LOCK TABLE _rw_events IN ROW EXCLUSIVE MODE');
      const second = createPostgresTables(pool, 1, schema);
      // The second start's DDL now waits for the log, which the writer holds.
      await waitFor(async () => {
        const { rows } = await pool.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database() AND query ILIKE '%_rw_events%' AND pid <> pg_backend_pid()`);
        return rows[0].n > 0;
      }, 'the second start waiting for the event log');
      // Before the fix the DDL held the sequence here, and this waited for it: a deadlock.
      await writer.query("SELECT nextval('_rw_event_seq')");
      await writer.query('COMMIT');
      await second;
    } finally {
      writer.release();
    }
  });
});
