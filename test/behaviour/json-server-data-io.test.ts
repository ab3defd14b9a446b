import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { createServer, type RestwellServer } from '../../src/app/server.js';
import { loadConfig } from '../../src/config/load.js';
import { defineResources } from '../../src/core/resource.js';
import { openStore } from '../../src/store/open.js';
import { bearer, engines } from '../../src/test-support/test-server.js';
import { ROOT, startServe } from '../support-process.js';

/** The published CLI in its own process, run in `cwd`, as the README runs it. */
const restwell = (cwd: string, ...args: string[]) =>
  spawnSync(process.execPath, [join(ROOT, 'bin/restwell.js'), ...args], { cwd, encoding: 'utf8', env: { ...process.env, DATABASE_URL: '', PORT: '', HOST: '' } });

const DB = {
  posts: [
    { id: 1, title: 'hello', authorId: 1, createdAt: '2024-01-02T03:04:05.000Z', updatedAt: '2024-02-03T04:05:06.000Z' },
    { id: 2, title: 'again', authorId: 1, createdAt: '2024-01-03T03:04:05.000Z', updatedAt: '2024-01-03T03:04:05.000Z' },
    { id: 3, title: 'third', authorId: 2, createdAt: '2024-01-04T03:04:05.000Z', updatedAt: '2024-01-04T03:04:05.000Z' },
  ],
  authors: [{ id: 1, name: 'Ada' }, { id: 2, name: 'Grace' }],
  tags: [{ id: 'a1', label: 'x', extra: { deep: [1, 2] } }, { id: 'b2', label: 'y', extra: null }],
};

function workdir(data: unknown = DB): string {
  const dir = mkdtempSync(join(tmpdir(), 'restwell-dataio-'));
  writeFileSync(join(dir, 'db.json'), JSON.stringify(data));
  return dir;
}

/** A server on the config `import` wrote, in this process, to write through the API as a client would. */
async function serverOn(dir: string, db: string): Promise<RestwellServer> {
  return createServer(loadConfig({ file: join(dir, 'db.restwell.yaml'), env: {}, overrides: { database: db } }), { logger: false });
}

/** Every record of every resource the config names, as the store holds them. */
async function records(dir: string, db: string) {
  const config = loadConfig({ file: join(dir, 'db.restwell.yaml'), env: {}, overrides: { database: db } });
  const store = await openStore(db);
  try {
    const out: Record<string, unknown[]> = {};
    for (const r of defineResources(config)) {
      const page = await store.list(r, { filters: [], sort: [], limit: 1000 });
      out[r.name] = page.records.map(({ id, data, createdAt, updatedAt }) => ({ id, data, createdAt, updatedAt }));
    }
    return out;
  } finally {
    await store.close();
  }
}

for (const engine of engines) {
  const dbOf = (dir: string) => (engine.name === 'sqlite' ? join(dir, 'x.db') : engine.freshUrl());

  describe(`serve/import db.json never silently loses what the API wrote (${engine.name})`, () => {
    it('refuses a changed file with counts per collection, and --force replaces the records', async () => {
      const dir = workdir();
      const db = dbOf(dir);
      assert.equal(restwell(dir, 'import', 'db.json', '--db', db).status, 0);
      const server = await serverOn(dir, db);
      try {
        const auth = await bearer(server);
        const send = async (method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) => {
          const type = method === 'PATCH' ? 'application/merge-patch+json' : 'application/json';
          const res = await server.app.inject({ method, url, headers: payload ? { ...auth, 'content-type': type } : auth, ...(payload ? { payload } : {}) });
          assert.ok(res.statusCode < 300, res.body);
        };
        await send('POST', '/posts', { title: 'new', authorId: 2 });
        await send('POST', '/posts', { title: 'newer', authorId: 2 });
        await send('PATCH', '/posts/1', { title: 'edited' });
        await send('DELETE', '/tags/b2');
      } finally {
        await server.close();
      }
      writeFileSync(join(dir, 'db.json'), JSON.stringify({ ...DB, authors: [{ id: 1, name: 'Ada L.' }, { id: 2, name: 'Grace' }] }));
      for (const command of ['serve', 'import']) {
        const res = restwell(dir, command, 'db.json', '--db', db, ...(command === 'serve' ? ['--port', '0'] : []));
        assert.equal(res.status, 1, res.stderr);
        assert.match(res.stderr, /it changed since its import at .*, and importing it again would lose 4 records written through the API since \(posts: 2 created, 1 changed; tags: 1 deleted\); nothing was imported/);
        assert.match(res.stderr, /export db\.current\.json --config db\.restwell\.yaml/);
        assert.match(res.stderr, new RegExp(`${command} db\\.json --db .* --force`));
        assert.doesNotMatch(res.stderr, /\n\s+at /, 'no stack trace');
      }
      assert.equal((await records(dir, db)).posts!.length, 5, 'nothing was replaced');
      const forced = await startServe([join(dir, 'db.json'), '--db', db, '--force']);
      try {
        assert.match(forced.output(), /changed since its import at .*: importing it again \(replacing those collections' records\)/);
        assert.equal((await fetch(`${forced.url}/posts/4`)).status, 404);
      } finally {
        await forced.stop();
      }
      const after = await records(dir, db);
      assert.deepEqual(after.posts!.map((p: any) => p.data.title), ['hello', 'again', 'third']);
      assert.deepEqual(after.authors!.map((a: any) => a.data.name), ['Ada L.', 'Grace']);
    });

    it('serves an unchanged file as the database holds it, and imports a changed one again when the API wrote nothing since', async () => {
      const dir = workdir();
      const db = dbOf(dir);
      assert.equal(restwell(dir, 'import', 'db.json', '--db', db).status, 0);
      const same = restwell(dir, 'import', 'db.json', '--db', db);
      assert.equal(same.status, 0, same.stderr);
      assert.match(same.stderr, /already imported and unchanged since; nothing to do/);
      writeFileSync(join(dir, 'db.json'), JSON.stringify({ ...DB, posts: DB.posts.slice(0, 1) }));
      const again = restwell(dir, 'import', 'db.json', '--db', db);
      assert.equal(again.status, 0, again.stderr);
      assert.deepEqual((await records(dir, db)).posts!.map((p: any) => p.id), [1]);
      writeFileSync(join(dir, 'db.json'), JSON.stringify({ ...DB, posts: DB.posts.slice(0, 2) }));
      const served = await startServe([join(dir, 'db.json'), '--db', db]);
      try {
        assert.match(served.output(), /changed since its import at .*: importing it again/);
        assert.equal((await fetch(`${served.url}/posts/2`)).status, 200);
      } finally {
        await served.stop();
      }
    });

    it('export → import gives the same records: ids, fields, timestamps', async () => {
      const dir = workdir();
      const db = dbOf(dir);
      assert.equal(restwell(dir, 'import', 'db.json', '--db', db).status, 0);
      const server = await serverOn(dir, db);
      try {
        const auth = { ...(await bearer(server)), 'content-type': 'application/json' };
        const res = await server.app.inject({ method: 'POST', url: '/tags', headers: auth, payload: { label: 'z', extra: { a: 'é😀' } } });
        assert.equal(res.statusCode, 201, res.body);
      } finally {
        await server.close();
      }
      const before = await records(dir, db);
      const exported = restwell(dir, 'export', 'out.json', '--config', 'db.restwell.yaml', '--db', db);
      assert.equal(exported.status, 0, exported.stderr);
      assert.match(exported.stderr, /Exported 8 records \(posts: 3, authors: 2, tags: 3\)/);
      const file = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8'));
      assert.deepEqual(file.posts[0], { id: 1, title: 'hello', authorId: 1, createdAt: '2024-01-02T03:04:05.000Z', updatedAt: '2024-02-03T04:05:06.000Z' });
      assert.deepEqual(Object.keys(file), ['posts', 'authors', 'tags']);
      assert.equal(readdirSync(dir).filter((f) => f.endsWith('.tmp')).length, 0, 'no temporary file is left');

      const other = mkdtempSync(join(tmpdir(), 'restwell-dataio-'));
      writeFileSync(join(other, 'db.json'), readFileSync(join(dir, 'out.json')));
      const db2 = dbOf(other);
      const imported = restwell(other, 'import', 'db.json', '--db', db2);
      assert.equal(imported.status, 0, imported.stderr);
      const config = parse(readFileSync(join(other, 'db.restwell.yaml'), 'utf8'));
      assert.equal(config.compat, 'json-server');
      assert.equal(config.resources.posts.fields.createdAt, undefined, 'the timestamps are the records\', not fields');
      assert.deepEqual(await records(other, db2), before);
    });

    it('export refuses to overwrite a file without --force; after exporting the data file, serve finds it unchanged', async () => {
      const dir = workdir();
      const db = dbOf(dir);
      assert.equal(restwell(dir, 'import', 'db.json', '--db', db).status, 0);
      const refused = restwell(dir, 'export', 'db.json', '--db', db);
      assert.equal(refused.status, 1);
      assert.match(refused.stderr, /^restwell: db\.json exists; nothing was written \(--force overwrites it\)\n$/);
      assert.deepEqual(JSON.parse(readFileSync(join(dir, 'db.json'), 'utf8')), DB);
      const server = await serverOn(dir, db);
      try {
        const res = await server.app.inject({ method: 'POST', url: '/authors', headers: { ...(await bearer(server)), 'content-type': 'application/json' }, payload: { name: 'Linus' } });
        assert.equal(res.statusCode, 201, res.body);
      } finally {
        await server.close();
      }
      const forced = restwell(dir, 'export', 'db.json', '--db', db, '--force');
      assert.equal(forced.status, 0, forced.stderr);
      assert.deepEqual(JSON.parse(readFileSync(join(dir, 'db.json'), 'utf8')).authors.map((a: any) => a.name), ['Ada', 'Grace', 'Linus']);
      const same = restwell(dir, 'import', 'db.json', '--db', db);
      assert.equal(same.status, 0, same.stderr);
      assert.match(same.stderr, /already imported and unchanged since; nothing to do/);
      // Edited after the export: nothing was written through the API since, so it is imported again.
      const edited = JSON.parse(readFileSync(join(dir, 'db.json'), 'utf8'));
      edited.authors[2].name = 'Linus T.';
      writeFileSync(join(dir, 'db.json'), JSON.stringify(edited));
      const again = restwell(dir, 'import', 'db.json', '--db', db);
      assert.equal(again.status, 0, again.stderr);
      assert.equal((await records(dir, db)).authors!.find((a: any) => a.id === 3)!.data.name, 'Linus T.');
    });
  });
}

describe('serve db.json opens writes to this machine only', () => {
  it('on loopback, resources without an access block take writes without a token, and the banner says so', async () => {
    const dir = workdir();
    const served = await startServe([join(dir, 'db.json'), '--db', join(dir, 'x.db')]);
    try {
      assert.match(served.stdout(), /writes are open to this machine \(127\.0\.0\.1\).*bind another --host and writes need a token/i);
      const res = await fetch(`${served.url}/authors`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Linus' }) });
      assert.equal(res.status, 201, await res.text());
    } finally {
      await served.stop();
    }
    assert.equal(parse(readFileSync(join(dir, 'db.restwell.yaml'), 'utf8')).resources.authors.access, undefined, 'the config file keeps the safe default');
  });

  it('on another interface nothing is opened', async () => {
    const dir = workdir();
    const served = await startServe([join(dir, 'db.json'), '--db', join(dir, 'x.db'), '--host', '0.0.0.0']);
    try {
      assert.doesNotMatch(served.output(), /writes are open/i);
      const res = await fetch(`${served.url}/authors`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Linus' }) });
      assert.equal(res.status, 401, await res.text());
    } finally {
      await served.stop();
    }
  });

  it('keeps an access block the config has', async () => {
    const dir = workdir();
    assert.equal(restwell(dir, 'import', 'db.json', '--db', 'x.db').status, 0);
    const config = parse(readFileSync(join(dir, 'db.restwell.yaml'), 'utf8'));
    config.resources.authors.access = { write: ['authors:write'] };
    writeFileSync(join(dir, 'db.restwell.yaml'), JSON.stringify(config));
    const served = await startServe([join(dir, 'db.json'), '--db', join(dir, 'x.db')]);
    try {
      assert.match(served.stdout(), /\(posts, tags: no access block/);
      assert.equal((await fetch(`${served.url}/authors`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"x"}' })).status, 401);
      assert.equal((await fetch(`${served.url}/tags`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"label":"x"}' })).status, 201);
    } finally {
      await served.stop();
    }
  });
});
