import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { ROOT } from '../support-process.js';
import { engines, PUBLIC_DEMO, testServer } from '../../src/test-support/test-server.js';
import { fullDisk, type FullDisk } from './disk-full-support.js';

/*
 * A full disk is an answer, not a 500: writes get 507 insufficient-storage with Retry-After,
 * the condition is logged once when it starts and once when it ends (never per request),
 * /readyz is 503 while writes cannot commit, and writes resume by themselves once space is free.
 * SQLite fills a real (tmpfs) filesystem; PostgreSQL raises its real disk_full error (53100).
 */
for (const engine of engines) {
  const disk = fullDisk(engine);
  describe(`a full disk (${engine.name})`, { skip: disk.skip }, () => {
    let d: FullDisk;
    before(async () => {
      d = await disk.open();
    });
    after(() => d?.close());

    test('writes are 507 + Retry-After, logged once per change; /readyz is 503 until space is back; writes resume alone', async () => {
      const lines: Array<Record<string, unknown>> = [];
      const stream = new Writable({
        write(chunk, _e, done) {
          for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
          done();
        },
      });
      const server = await testServer({ ...engine, freshUrl: () => d.url }, PUBLIC_DEMO, {}, { level: 'info', stream });
      const post = (name: string) => server.app.inject({ method: 'POST', url: '/characters', payload: { name } });
      const ready = () => server.app.inject({ method: 'GET', url: '/readyz' });
      const storageLines = () => lines.filter((l) => l.storage !== undefined).map((l) => [l.level, l.storage]);
      try {
        assert.equal((await post('Before')).statusCode, 201);
        await d.fill();
        const sinceFull = lines.length;
        for (const name of ['One', 'Two', 'Three']) {
          const res = await post(name);
          assert.equal(res.statusCode, 507, res.body);
          assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8');
          assert.ok(Number(res.headers['retry-after']) > 0, 'Retry-After says when to try again');
          assert.match(res.json().type, /\/problems\/insufficient-storage$/);
          assert.match(res.json().detail, /no storage space left.*nothing was stored/);
        }
        const keyed = await server.app.inject({ method: 'POST', url: '/characters', headers: { 'idempotency-key': 'while-full' }, payload: { name: 'Keyed' } });
        assert.equal(keyed.statusCode, 507, keyed.body);
        assert.equal((await server.app.inject({ method: 'GET', url: '/characters/1' })).statusCode, 200, 'reads still work');
        const notReady = await ready();
        assert.equal(notReady.statusCode, 503);
        assert.match(notReady.json().detail, /writes cannot commit: the database has no storage space left/);
        assert.deepEqual(storageLines(), [[40, 'full']], 'one warning for three refused writes and a probe');
        const warnings = lines.slice(sinceFull).filter((l) => (l.level as number) >= 40 && l.storage === undefined);
        assert.deepEqual(warnings, [], 'no warning or error (stack) per request');

        await d.free();
        assert.equal((await ready()).statusCode, 200, 'the readiness probe finds the space itself');
        assert.deepEqual(storageLines(), [[40, 'full'], [30, 'ok']]);
        assert.equal((await post('After')).statusCode, 201);

        await d.fill();
        assert.equal((await post('Again')).statusCode, 507);
        await d.free();
        assert.equal((await post('Resumed')).statusCode, 201, 'a write commits once space is free, with no probe first');
        assert.equal((await ready()).statusCode, 200);
        assert.deepEqual(storageLines(), [[40, 'full'], [30, 'ok'], [40, 'full'], [30, 'ok']]);
        const names = (await server.app.inject({ method: 'GET', url: '/characters?sort=id' })).json()._embedded.characters.map((c: { name: string }) => c.name);
        assert.deepEqual(names, ['Before', 'After', 'Resumed'], 'nothing refused was stored');
      } finally {
        await server.close();
      }
    });

    test('restwell keys create and clients create print one clear line and exit 1', async () => {
      await d.fill();
      try {
        for (const command of ['keys', 'clients']) {
          const res = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', command, 'create', '--name', 'ci', '--scopes', 'characters:write', '--db', d.url], { cwd: ROOT, encoding: 'utf8' });
          assert.equal(res.status, 1, res.stderr);
          assert.match(res.stderr, /^restwell: the database has no storage space left \(.+\); nothing was stored; free disk space, then retry\n$/, command);
          assert.equal(res.stdout, '');
        }
      } finally {
        await d.free();
      }
      const res = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'keys', 'create', '--name', 'ci', '--scopes', 'characters:write', '--db', d.url], { cwd: ROOT, encoding: 'utf8' });
      assert.equal(res.status, 0, res.stderr);
      assert.match(res.stdout, /^rw_/, 'with space back, the same command works');
    });
  });
}
