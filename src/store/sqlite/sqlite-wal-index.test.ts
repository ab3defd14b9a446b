import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { endianness, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { WalChangeCounter } from './sqlite-wal-index.js';

const dir = mkdtempSync(join(tmpdir(), 'rw-wal-index-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('the counter moves on every commit, by this connection or another, and only then', () => {
  const file = join(dir, 'db.sqlite');
  const db = new BetterSqlite3(file);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE t (x)');
  const other = new BetterSqlite3(file);
  const counter = WalChangeCounter.open(`${file}-shm`);
  assert.ok(counter, 'a WAL database has a readable wal-index header');
  const seen = [counter.read()];
  db.prepare('SELECT * FROM t').all();
  assert.equal(counter.read(), seen[0], 'a read is no commit');
  db.prepare('INSERT INTO t VALUES (1)').run();
  seen.push(counter.read());
  other.prepare('INSERT INTO t VALUES (2)').run();
  seen.push(counter.read());
  db.pragma('wal_checkpoint(TRUNCATE)');
  other.prepare('INSERT INTO t VALUES (3)').run();
  seen.push(counter.read());
  assert.equal(new Set(seen).size, seen.length, `every commit gave a new value: ${seen.join(', ')}`);
  counter.close();
  other.close();
  db.close();
});

/** A wal-index header as SQLite lays it out (native byte order): iVersion, unused, iChange, isInit; twice. */
function header(first: number, second = first): Buffer {
  const b = Buffer.alloc(96);
  const u32 = (value: number, at: number) => (endianness() === 'LE' ? b.writeUInt32LE(value, at) : b.writeUInt32BE(value, at));
  for (const [at, change] of [
    [0, first],
    [48, second],
  ]) {
    u32(3007000, at);
    u32(change, at + 8);
    b[at + 12] = 1;
  }
  return b;
}

test('copies that differ (a commit writing the header) read as unknown, never as either value', () => {
  const shm = join(dir, 'fake-shm');
  writeFileSync(shm, header(7));
  const counter = WalChangeCounter.open(shm)!;
  assert.equal(counter.read(), 7);
  writeFileSync(shm, header(8, 7));
  assert.equal(counter.read(), undefined);
  writeFileSync(shm, header(8));
  assert.equal(counter.read(), 8);
  counter.close();
});

test('no file, a short file or another header version: no counter (SQLite is asked instead)', () => {
  assert.equal(WalChangeCounter.open(join(dir, 'missing-shm')), undefined);
  const shm = join(dir, 'odd-shm');
  writeFileSync(shm, Buffer.alloc(40));
  assert.equal(WalChangeCounter.open(shm), undefined);
  const other = header(1);
  other[0] ^= 1;
  other[48] ^= 1;
  writeFileSync(shm, other);
  assert.equal(WalChangeCounter.open(shm), undefined);
});
