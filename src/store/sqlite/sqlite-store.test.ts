import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { defineResources } from '../../core/resource.js';
import { SqliteStore } from './sqlite-store.js';

const [notes] = defineResources({ resources: { notes: { fields: { text: { type: 'string' } } } } });
const dir = mkdtempSync(join(tmpdir(), 'rw-sqlite-store-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('a database reached through a symbolic link opens, and its writes and reads stay coherent with the real path', async () => {
  mkdirSync(join(dir, 'real'));
  const real = join(dir, 'real', 'data.db');
  const link = join(dir, 'link.db');
  symlinkSync(real, link);
  // SQLite keeps the -wal and -shm files beside the real file, which is what must be fsynced and read.
  const viaLink = new SqliteStore(link);
  await viaLink.sync([notes], { allowDestructive: false });
  const viaReal = new SqliteStore(real);
  try {
    const { id } = await viaLink.insert(notes, { text: 'one' });
    assert.equal((await viaLink.get(notes, id))?.data.text, 'one');
    await viaReal.mutate(notes, id, () => ({ put: { text: 'two' } }));
    assert.equal((await viaLink.get(notes, id))?.data.text, 'two', 'the cached read saw the other connection’s commit');
  } finally {
    await viaReal.close();
    await viaLink.close();
  }
});
