import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { waitFor } from '../../src/test-support/wait-for.js';
import { ROOT, startServe } from '../support-process.js';

// No rate limit: the writers send more than the default 1000 a minute.
const CONFIG = 'auth:\n  rateLimit: false\nresources:\n  notes:\n    fields:\n      text: { type: string, required: true }\n    access: { read: public, write: public }\n';

/** Runs the real CLI (`node bin/restwell.js`, as users do) without blocking this process, so the writers keep writing meanwhile. */
function cli(args: string[], extraEnv: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const { DATABASE_URL: _ignored, RESTWELL_CONFIG: _none, ...env } = process.env;
    execFile(process.execPath, ['bin/restwell.js', ...args], { cwd: ROOT, env: { ...env, ...extraEnv } }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** A refusal: exit 1, one line saying `pattern`, no stack trace. */
function assertRefused(result: { code: number; stderr: string }, pattern: RegExp): void {
  assert.equal(result.code, 1, result.stderr);
  assert.match(result.stderr, pattern);
  assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
}

interface Note {
  id: number;
  text: string;
  version: number;
  createdAt: string;
  updatedAt: string;
}

/** Writers POSTing notes until stopped, remembering every acknowledged (201) one. */
function startWriters(url: string, count: number) {
  const acked = new Map<number, Note>();
  let stopped = false;
  let failure: Error | undefined;
  let seq = 0;
  const loop = async () => {
    try {
      while (!stopped && !failure) {
        const res = await fetch(`${url}/notes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: `note ${seq++}` }) });
        if (res.status !== 201) throw new Error(`a write was answered ${res.status}: ${await res.text()}`);
        const note = (await res.json()) as Note;
        acked.set(note.id, note);
      }
    } catch (err) {
      failure ??= err as Error;
    }
  };
  const loops = Array.from({ length: count }, loop);
  return {
    acked,
    /** Waits until `n` writes are acknowledged; a failed write fails the wait at once. */
    async until(n: number) {
      await waitFor(() => {
        if (failure) throw failure;
        return acked.size >= n;
      }, `${n} acknowledged writes`);
    },
    /** Stops sending; resolves once every write sent has its answer (none is left in flight). */
    async stop() {
      stopped = true;
      await Promise.all(loops);
      if (failure) throw failure;
    },
  };
}

/** What the backup CLI reported: its record count and the backup point's event position. */
function reported(stdout: string): { records: number; seq: number } {
  const records = /records: (\d+)/.exec(stdout);
  const point = /backup point: event #(\d+)/.exec(stdout);
  assert.ok(records && point, stdout);
  return { records: Number(records[1]), seq: Number(point[1]) };
}

/**
 * The acceptance: a server takes writes from several writers; `restwell backup` runs (as its own
 * process) in the middle of them; writes go on after it. The backup restored elsewhere serves
 * every write acknowledged before the backup started, byte for byte, and holds nothing that was
 * never acknowledged (every write sent got its answer before the check, so none is in flight).
 */
async function backupUnderLoad(live: string, restored: string, dir: string, checkIntegrity?: () => void): Promise<{ before: number; restoredCount: number; seq: number }> {
  const config = join(dir, 'notes.yaml');
  writeFileSync(config, CONFIG);
  const file = join(dir, 'notes.backup');
  const server = await startServe(['--db', live, '--config', config]);
  const writers = startWriters(server.url, 4);
  let backup: { code: number; stdout: string; stderr: string };
  let before: Map<number, Note>;
  try {
    await writers.until(100);
    before = new Map(writers.acked);
    backup = await cli(['backup', file, '--db', live]);
    assert.equal(backup.code, 0, backup.stderr);
    // Writes acknowledged after the backup finished: they must not be in it unless the snapshot saw them.
    const after = writers.acked.size;
    await writers.until(after + 50);
    if (!live.startsWith('postgres')) {
      // A running server has the database open: restoring over it is refused, even with --force.
      assertRefused(await cli(['restore', file, '--db', live, '--force']), /is in use \(a running server/);
    }
  } finally {
    await writers.stop();
    await server.stop();
  }
  const point = reported(backup.stdout);

  const restore = await cli(['restore', file, '--db', restored]);
  assert.equal(restore.code, 0, restore.stderr);
  assert.equal(reported(restore.stdout).records, point.records, 'restore reports what backup reported');
  checkIntegrity?.();

  const second = await startServe(['--db', restored, '--config', config]);
  try {
    for (const [id, note] of before) {
      const res = await fetch(`${second.url}/notes/${id}`);
      assert.equal(res.status, 200, `note ${id}, acknowledged before the backup, is restored`);
      const got = (await res.json()) as Note;
      assert.deepEqual({ id: got.id, text: got.text, version: got.version, createdAt: got.createdAt, updatedAt: got.updatedAt }, { id: note.id, text: note.text, version: note.version, createdAt: note.createdAt, updatedAt: note.updatedAt });
    }
    // No phantom: every restored note (the whole list, page by page) is one that was acknowledged, as acknowledged.
    let present = 0;
    for (let next: string | undefined = '/notes?limit=100'; next; ) {
      const page = (await (await fetch(`${second.url}${next}`)).json()) as { _embedded: { notes: Note[] }; _links: { next?: { href: string } } };
      for (const note of page._embedded.notes) {
        assert.ok(writers.acked.has(note.id), `restored note ${note.id} was acknowledged`);
        assert.equal(note.text, writers.acked.get(note.id)!.text);
        present++;
      }
      next = page._links.next?.href;
    }
    assert.equal(present, point.records, 'the backup reported the records it holds');
    assert.ok(present >= before.size && present < writers.acked.size, `the backup (${present}) lies between the writes before it (${before.size}) and all of them (${writers.acked.size})`);
    return { before: before.size, restoredCount: present, seq: point.seq };
  } finally {
    await second.stop();
  }
}

test('SQLite: a backup taken under write load restores to a database that serves every write acknowledged before it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rw-backup-'));
  const restored = join(dir, 'restored.db');
  const result = await backupUnderLoad(join(dir, 'live.db'), restored, dir, () => {
    const db = new BetterSqlite3(restored, { readonly: true });
    try {
      assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
    } finally {
      db.close();
    }
  });
  // One writer commits at a time, so positions are dense: the backup point is the count of creations in it.
  assert.equal(result.seq, result.restoredCount, 'the backup point is the last of exactly the records in the backup');
});

test('bad inputs are refused with one line and exit 1: missing file, not a database, not Restwell, existing target', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rw-backup-bad-'));
  const db = join(dir, 'data.db');
  assertRefused(await cli(['backup', join(dir, 'out.db'), '--db', db]), /no database at .*data\.db/);
  assertRefused(await cli(['restore', join(dir, 'missing.db'), '--db', db]), /no backup at .*missing\.db/);
  const text = join(dir, 'notes.txt');
  writeFileSync(text, 'not a database at all, just some text that is long enough to have a header'.repeat(10));
  assertRefused(await cli(['restore', text, '--db', db]), /notes\.txt is not a SQLite database/);
  const other = join(dir, 'other.db');
  const foreign = new BetterSqlite3(other);
  foreign.exec('CREATE TABLE t (x)');
  foreign.close();
  assertRefused(await cli(['restore', other, '--db', db]), /not a Restwell one/);
  assertRefused(await cli(['backup', join(dir, 'out.db'), '--db', other]), /not a Restwell one/);

  // A real backup, then the existing targets: backup file, and a database that exists.
  const config = join(dir, 'notes.yaml');
  writeFileSync(config, CONFIG);
  const server = await startServe(['--db', db, '--config', config]);
  await server.stop();
  const file = join(dir, 'backup.db');
  assert.equal((await cli(['backup', file, '--db', db])).code, 0);
  assertRefused(await cli(['backup', file, '--db', db]), /backup\.db exists; nothing was written \(--force overwrites it\)/);
  assert.equal((await cli(['backup', file, '--db', db, '--force'])).code, 0);
  assertRefused(await cli(['restore', file, '--db', db]), /data\.db exists; a restore replaces it: stop the server and add --force/);
  const forced = await cli(['restore', file, '--db', db, '--force']);
  assert.equal(forced.code, 0, forced.stderr);
  assert.match(forced.stdout, /records: 0 \(notes: 0\)/);
});

test('PostgreSQL without pg_dump installed: says how to install it and the command to run, never the password', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rw-backup-nopg-'));
  // No PATH: the client tools cannot be found (the check comes before any connection, so no server is needed).
  const url = 'postgres://app:s3cret-pw@127.0.0.1:1/shop?schema=app';
  const backup = await cli(['backup', join(dir, 'shop.dump'), '--db', url], { PATH: dir });
  assertRefused(backup, /pg_dump is not installed .*apt-get install postgresql-client.*pg_dump --format=custom --schema=app --file=.*shop\.dump 'postgres:\/\/app@127\.0\.0\.1:1\/shop'/);
  assert.doesNotMatch(backup.stderr, /s3cret-pw/);
  writeFileSync(join(dir, 'shop.dump'), 'x');
  const restore = await cli(['restore', join(dir, 'shop.dump'), '--db', url], { PATH: dir });
  assertRefused(restore, /pg_restore is not installed .*pg_restore --clean --if-exists --single-transaction/);
  assert.doesNotMatch(restore.stderr, /s3cret-pw/);
});

const pgUrl = process.env.TEST_DATABASE_URL;

test('PostgreSQL: a pg_dump backup taken under write load restores every write acknowledged before it', { skip: !pgUrl && 'TEST_DATABASE_URL is not set' }, async () => {
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  // Databases of its own: a restore replaces a whole schema, which must be no other test's.
  const name = `restwell_backup_test_${randomBytes(4).toString('hex')}`;
  const databases = [name, `${name}_restored`];
  try {
    for (const d of databases) await admin.query(`CREATE DATABASE ${d}`);
    const urlOf = (d: string) => {
      const url = new URL(pgUrl!);
      url.pathname = `/${d}`;
      url.searchParams.set('schema', 'app');
      return url.toString();
    };
    const dir = mkdtempSync(join(tmpdir(), 'rw-backup-pg-'));
    await backupUnderLoad(urlOf(databases[0]), urlOf(databases[1]), dir);

    // A dump of another schema, or a file that is no dump, is refused before anything changes.
    const other = new URL(urlOf(databases[1]));
    other.searchParams.set('schema', 'elsewhere');
    assertRefused(await cli(['restore', join(dir, 'notes.backup'), '--db', other.toString()]), /holds the schema "app" but the database URL uses "elsewhere"/);
    assertRefused(await cli(['restore', join(dir, 'notes.yaml'), '--db', urlOf(databases[1])]), /is not a pg_dump backup/);
    assertRefused(await cli(['restore', join(dir, 'notes.backup'), '--db', urlOf(databases[1])]), /holds tables; a restore replaces them/);
  } finally {
    for (const d of databases) await admin.query(`DROP DATABASE IF EXISTS ${d} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
  }
});
