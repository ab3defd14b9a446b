import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { startServe } from '../support-process.js';

const post = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

test('every acknowledged write survives kill -9 right after its response, and a restart', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rw-kill-'));
  const db = join(dir, 'data.db');
  const config = join(dir, 'public.yaml');
  writeFileSync(config, 'resources:\n  characters:\n    fields:\n      name: { type: string, required: true, unique: true }\n    access: { read: public, write: public }\n');
  const first = await startServe(['--db', db, '--config', config]);
  const acknowledged: number[] = [];
  // Concurrent writes (grouped into shared commits), then SIGKILL the moment the last 201 arrives.
  const responses = await Promise.all(Array.from({ length: 50 }, (_, i) => post(`${first.url}/characters`, { name: `Character ${i}` })));
  for (const res of responses) {
    assert.equal(res.status, 201);
    acknowledged.push((await res.json()).id);
  }
  await first.stop('SIGKILL');

  const second = await startServe(['--db', db, '--config', config]);
  try {
    for (const id of acknowledged) assert.equal((await fetch(`${second.url}/characters/${id}`)).status, 200, `record ${id} survived`);
  } finally {
    await second.stop();
  }
});

test('adding a field to the config and restarting works on the existing database; removing one is refused', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rw-migrate-'));
  const db = join(dir, 'data.db');
  const v1 = join(dir, 'v1.yaml');
  const v2 = join(dir, 'v2.yaml');
  writeFileSync(v1, 'resources:\n  characters:\n    fields:\n      name: { type: string, required: true, unique: true }\n    access: { read: public, write: public }\n');
  writeFileSync(v2, 'resources:\n  characters:\n    fields:\n      name: { type: string, required: true, unique: true }\n      age: { type: integer, index: true }\n    access: { read: public, write: public }\n');

  const a = await startServe(['--db', db, '--config', v1]);
  const created = await (await post(`${a.url}/characters`, { name: 'Homer' })).json();
  await a.stop();

  const b = await startServe(['--db', db, '--config', v2]);
  try {
    const kept = await (await fetch(`${b.url}/characters/${created.id}`)).json();
    assert.equal(kept.name, 'Homer');
    assert.equal(kept.age, null, 'the new field exists, empty for old records');
    const withAge = await post(`${b.url}/characters`, { name: 'Bart', age: 10 });
    assert.equal(withAge.status, 201);
    assert.equal((await fetch(`${b.url}/characters?age[gte]=10`).then((r) => r.json())).count, 1);
  } finally {
    await b.stop();
  }

  await assert.rejects(startServe(['--db', db, '--config', v1]), /fields\.age: removing the field deletes its stored values/);
});
