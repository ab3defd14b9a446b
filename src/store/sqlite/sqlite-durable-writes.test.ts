import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, test } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { defineResources } from '../../core/resource.js';
import { SqliteStore } from './sqlite-store.js';

const [notes] = defineResources({ resources: { notes: { fields: { text: { type: 'string', unique: true } } } } });
const dir = mkdtempSync(join(tmpdir(), 'rw-sqlite-durable-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Bytes of a WAL holding `frames` frames of 4 KiB pages (32-byte header, 24 bytes before each page). */
const walBytes = (frames: number) => 32 + frames * (24 + 4096);
/** SQLite's automatic checkpoint starts the WAL over once it passes this many frames (`wal_autocheckpoint`). */
const AUTOCHECKPOINT_FRAMES = 1000;

test('under steady writes the WAL is checkpointed and starts over, so it stays near wal_autocheckpoint frames', async () => {
  const path = join(dir, 'steady.db');
  const store = new SqliteStore(path);
  await store.sync([notes], { allowDestructive: false });
  let largest = 0;
  try {
    // Batches of 32 writes (one group commit each), with a long text so that every write dirties pages:
    // many times wal_autocheckpoint frames in all.
    const pad = 'x'.repeat(3000);
    for (let batch = 0; batch < 400; batch++) {
      await Promise.all(Array.from({ length: 32 }, (_, i) => store.insert(notes, { text: `${batch}-${i}-${pad}` })));
      largest = Math.max(largest, statSync(`${path}-wal`).size);
    }
  } finally {
    await store.close();
  }
  // Without a checkpoint that completes, the WAL would hold every frame written (past 12,800 here).
  assert.ok(largest < walBytes(4 * AUTOCHECKPOINT_FRAMES), `the WAL grew to ${largest} bytes`);
  const db = new BetterSqlite3(path, { readonly: true });
  try {
    assert.equal(db.prepare('SELECT count(*) FROM notes').pluck().get(), 400 * 32);
    assert.equal(db.prepare('SELECT count(*) FROM _rw_events').pluck().get(), 400 * 32);
    assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
  } finally {
    db.close();
  }
});

// The writer runs in its own process, acknowledging each write on stdout once its promise resolved
// (as a 201 would be sent), and is killed with SIGKILL in the middle of its stream of writes.
const WRITER = `
import { defineResources } from './src/core/resource.ts';
import { SqliteStore } from './src/store/sqlite/sqlite-store.ts';
const [notes] = defineResources({ resources: { notes: { fields: { text: { type: 'string' } } } } });
const store = new SqliteStore(process.argv[1]);
await store.sync([notes], { allowDestructive: false });
const pad = 'y'.repeat(2000);
for (let n = 0; ; n++) {
  await Promise.all(Array.from({ length: 16 }, async (_, i) => {
    const record = await store.insert(notes, { text: n + '-' + i + '-' + pad });
    process.stdout.write(record.id + '\\n');
  }));
}
`;

test('a process killed with SIGKILL mid-stream, checkpoints included, keeps every write it acknowledged', async () => {
  const path = join(dir, 'killed.db');
  const root = resolve(import.meta.dirname, '../../..');
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', WRITER, path], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  const acknowledged: number[] = [];
  let rest = '';
  await new Promise<void>((done, fail) => {
    child.on('exit', (code, signal) => (signal === 'SIGKILL' ? done() : fail(new Error(`the writer exited on its own (${code})`))));
    child.stdout.on('data', (chunk: Buffer) => {
      const lines = (rest + chunk.toString()).split('\n');
      rest = lines.pop()!;
      for (const line of lines) acknowledged.push(Number(line));
      // Past several checkpoints' worth of frames: the kill lands while writes (and perhaps a checkpoint) run.
      if (acknowledged.length >= 3000 && child.exitCode === null && !child.killed) child.kill('SIGKILL');
    });
  });
  const db = new BetterSqlite3(path);
  try {
    const stored = new Set(db.prepare('SELECT id FROM notes').pluck().all() as number[]);
    const lost = acknowledged.filter((id) => !stored.has(id));
    assert.deepEqual(lost, [], `${lost.length} of ${acknowledged.length} acknowledged writes are missing`);
    assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
  } finally {
    db.close();
  }
});
