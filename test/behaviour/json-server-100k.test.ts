import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as netServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createServer, type RestwellServer } from '../../src/app/server.js';
import { loadConfig } from '../../src/config/load.js';
import { engines } from '../../src/test-support/test-server.js';
import { jsonServerDb } from '../../src/test-support/json-server-db.js';
import { ROOT } from '../support-process.js';

// A real json-server db.json of 100,000 rows (10k users, 30k posts, 60k comments, a singular
// profile): json-server 0.17.4 itself serves it, and after `restwell import` Restwell answers the
// same records, by id and by filter. No timing is asserted (see bench/import.ts for that).

const ROWS = 100_000;

async function freePort(): Promise<number> {
  const s = netServer().listen(0, '127.0.0.1');
  await once(s, 'listening');
  const port = (s.address() as { port: number }).port;
  s.close();
  await once(s, 'close');
  return port;
}

async function waitFor(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const giveUp = Date.now() + 60_000;
  while (Date.now() < giveUp) {
    if (child.exitCode !== null) throw new Error(`json-server exited:\n${output()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`json-server did not start:\n${output()}`);
}

/** A Restwell record as json-server holds it: without the members Restwell adds, and without the fields it reads as null where the row has none. */
function asJsonServer(record: Record<string, unknown>, original: Record<string, unknown>): Record<string, unknown> {
  const { version: _v, createdAt: _c, updatedAt: _u, _links, ...rest } = record;
  for (const [k, v] of Object.entries(rest)) if (v === null && !(k in original)) delete rest[k];
  return rest;
}

describe('a real json-server db.json of 100k rows', () => {
  const dir = mkdtempSync(join(tmpdir(), 'restwell-json-server-'));
  const file = join(dir, 'db.json');
  let jsonServer: ChildProcess;
  let jsonServerUrl: string;
  let out = '';

  before(async () => {
    writeFileSync(file, JSON.stringify(jsonServerDb(ROWS), null, 2));
    const port = await freePort();
    jsonServer = spawn(process.execPath, [join(ROOT, 'node_modules/json-server/lib/cli/bin.js'), '--port', String(port), '--host', '127.0.0.1', '--read-only', '--quiet', file], { stdio: ['ignore', 'pipe', 'pipe'] });
    jsonServer.stdout!.on('data', (d) => (out += d));
    jsonServer.stderr!.on('data', (d) => (out += d));
    jsonServerUrl = `http://127.0.0.1:${port}`;
    await waitFor(`${jsonServerUrl}/profile`, jsonServer, () => out);
  });
  after(async () => {
    if (jsonServer.exitCode === null) {
      const exited = once(jsonServer, 'exit');
      jsonServer.kill();
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  const fromJsonServer = async (path: string) => {
    const res = await fetch(`${jsonServerUrl}${path}`);
    assert.equal(res.status, 200, path);
    return res.json();
  };

  test('json-server 0.17.4 serves it', async () => {
    assert.equal((await fromJsonServer('/posts/1')).id, 1);
    assert.equal((await fromJsonServer('/comments?_limit=1')).length, 1);
    assert.deepEqual(await fromJsonServer('/profile'), { name: 'typicode' });
  });

  for (const engine of engines) {
    describe(`after restwell import (${engine.name})`, () => {
      const url = engine.freshUrl();
      const config = join(dir, `${engine.name}.restwell.yaml`);
      let server: RestwellServer;
      let importRun: ReturnType<typeof spawnSync>;
      before(async () => {
        importRun = spawnSync(process.execPath, ['bin/restwell.js', 'import', file, '--db', url, '--config', config], { cwd: ROOT, encoding: 'utf8' });
        server = await createServer(loadConfig({ file: config, env: {}, overrides: { database: url } }), { logger: false });
      });
      after(() => server?.close());

      const fromRestwell = async (path: string) => {
        const res = await server.app.inject({ method: 'GET', url: path });
        assert.equal(res.statusCode, 200, res.body);
        return res.json();
      };

      test('the import succeeds with a summary line per collection', () => {
        assert.equal(importRun.status, 0, String(importRun.stderr));
        for (const [name, rows] of [['users', 10_000], ['posts', 30_000], ['comments', 60_000]] as const) {
          assert.match(String(importRun.stderr), new RegExp(`^${name}: ${rows} rows in \\d+\\.\\d\\d s$`, 'm'));
        }
        assert.match(String(importRun.stderr), /profile \(singular object\): name string\*/);
      });

      test('Restwell answers the same records by id', async () => {
        for (const path of ['/users/1', '/users/4321', '/posts/1', '/posts/15000', '/posts/30000', '/comments/1', '/comments/33333', '/comments/60000']) {
          const expected = await fromJsonServer(path);
          assert.deepEqual(asJsonServer(await fromRestwell(path), expected), expected, path);
        }
      });

      test('and the same records for a filter', async () => {
        // The same URL: the written config says compat: json-server (a bare array); a HAL page's records are compared alike.
        for (const path of ['/comments?postId=7', '/posts?userId=42']) {
          const expected: Array<Record<string, unknown>> = await fromJsonServer(path);
          assert.ok(expected.length > 0, path);
          const page = await fromRestwell(path);
          const items: Array<Record<string, unknown>> = Array.isArray(page) ? page : (Object.values(page._embedded)[0] as any);
          assert.deepEqual(items.map((r, i) => asJsonServer(r, expected[i] ?? {})), expected, path);
        }
      });
    });
  }
});
