import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { StoreFullError } from '../errors.js';
import { SqliteGroupCommit } from './sqlite-group-commit.js';

// SQLite's own "database or disk is full" (SQLITE_FULL), reached without filling a disk: the
// database may not grow past max_page_count pages. Runs everywhere (the tmpfs test needs mount).
test('a write SQLite refuses as full is StoreFullError, its whole batch is refused (nothing half-stored), and writes resume once there is room', async () => {
  const path = join(mkdtempSync(join(tmpdir(), 'restwell-full-')), 'full.db');
  const db = new BetterSqlite3(path);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE t (x TEXT)');
  const writer = new SqliteGroupCommit(db, `${path}-wal`);
  const insert = db.prepare('INSERT INTO t VALUES (?)');
  const pages = Number(db.pragma('page_count', { simple: true }));
  db.pragma(`max_page_count = ${pages + 1}`);
  try {
    // SQLITE_FULL rolls back the whole transaction, so the batch-mate that fitted is not stored either, and is told so.
    const outcomes = await Promise.allSettled([writer.run(() => insert.run('small')), writer.run(() => insert.run('x'.repeat(64 * 1024)))]);
    for (const outcome of outcomes) {
      assert.equal(outcome.status, 'rejected');
      assert.ok(outcome.reason instanceof StoreFullError, String(outcome.reason));
      assert.match(outcome.reason.message, /no storage space left \(SQLITE_FULL/);
    }
    assert.equal(db.prepare('SELECT count(*) FROM t').pluck().get(), 0);
    db.pragma('max_page_count = 1073741823');
    await writer.run(() => insert.run('x'.repeat(64 * 1024)));
    assert.equal(db.prepare('SELECT count(*) FROM t').pluck().get(), 1);
  } finally {
    writer.close();
    db.close();
  }
});
