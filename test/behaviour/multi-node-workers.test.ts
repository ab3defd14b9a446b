import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { request } from 'undici';
import { engines } from '../../src/test-support/engines.js';
import { waitFor } from '../../src/test-support/wait-for.js';
import { configFile, startServe } from '../support-process.js';

const json = { 'content-type': 'application/json' };
const CONFIG = { resources: { items: { fields: { name: { type: 'string', required: true, unique: true } }, access: { read: 'public', write: 'public' } } }, auth: { rateLimit: false } };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The `restwell serve` worker processes forked by a primary. */
function workersOf(primary: number): number[] {
  let out = '';
  try {
    out = execFileSync('pgrep', ['-P', String(primary)], { encoding: 'utf8' });
  } catch {
    return []; // pgrep exits 1 when there are none
  }
  return out
    .split('\n')
    .filter(Boolean)
    .map(Number)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('serve');
      } catch {
        return false;
      }
    });
}

for (const engine of engines) {
  describe(`serve --workers 2 (${engine.name})`, { skip: process.platform === 'linux' ? false : 'reads /proc to find the workers' }, () => {
    test('workers share the port and the database, a dead worker is replaced, SIGTERM stops all', { timeout: 120_000 }, async () => {
      const server = await startServe(['--config', configFile(CONFIG), '--db', engine.freshUrl(), '--workers', '2']);
      try {
        const primary = server.child.pid!;
        assert.equal(workersOf(primary).length, 2, server.output());

        const created = await Promise.all(
          Array.from({ length: 100 }, (_, i) => fetch(`${server.url}/items`, { method: 'POST', headers: json, body: JSON.stringify({ name: `item-${i % 50}` }) })),
        );
        const statuses = created.map((r) => r.status);
        assert.equal(statuses.filter((s) => s === 201).length, 50, 'each name once, whichever worker took it');
        assert.equal(statuses.filter((s) => s === 409).length, 50);
        const ids = await Promise.all(created.filter((r) => r.status === 201).map(async (r) => (await r.json()).id));
        assert.equal(new Set(ids).size, 50);

        const [victim] = workersOf(primary);
        process.kill(victim, 'SIGKILL');
        for (let i = 0; ; i++) {
          const now = workersOf(primary);
          if (now.length === 2 && !now.includes(victim)) break;
          assert.ok(i < 600, `no replacement worker:\n${server.output()}`);
          await sleep(50);
        }
        // Service carries on with the replacement in place.
        // New connections (the pooled ones went down with the killed worker, as they would for any client).
        for (let i = 0; i < 20; i++) {
          // A request that gets no answer says what the primary and the workers printed (once seen in CI, not reproduced).
          const res = await request(`${server.url}/items?limit=1`, { reset: true }).catch((err: Error) => {
            throw new Error(`request ${i + 1} after the replacement: ${err.message}\n${server.output()}`, { cause: err });
          });
          await res.body.dump();
          assert.equal(res.statusCode, 200);
        }
        // The primary's log line, once its batch is written (within 100 ms, later on a busy machine).
        const replaced = new RegExp(`worker ${victim} exited \\(SIGKILL\\); starting a replacement`);
        await waitFor(() => replaced.test(server.output()), `the primary's log line about worker ${victim}`);
      } finally {
        await server.stop();
        assert.equal(server.child.exitCode, 0, server.output());
      }
      assert.deepEqual(workersOf(server.child.pid!), []);
    });
  });
}
