import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { apiKeyHeaders, configFile, ROOT, startServe, type ServeProcess } from '../support-process.js';

const pgUrl = process.env.TEST_DATABASE_URL;
const json = { 'content-type': 'application/json' };
const CONFIG = { resources: { notes: { fields: { n: { type: 'integer', required: true, unique: true } }, access: { read: 'public', write: 'public' } } }, auth: { rateLimit: false } };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` until it holds (the outage and the recovery are observed, not timed). */
async function until(what: string, check: () => boolean | Promise<boolean>, limitMs = 60_000): Promise<void> {
  const giveUp = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > giveUp) throw new Error(`gave up waiting: ${what}`);
    await sleep(20);
  }
}

describe('PostgreSQL lost while serving', { skip: pgUrl ? false : 'TEST_DATABASE_URL is not set (the fault test needs PostgreSQL)' }, () => {
  // A database of its own, so refusing connections to it touches nothing else.
  const dbName = `rw_fault_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: pgUrl });
  let server: ServeProcess;
  let auth: Record<string, string>;

  const cut = async () => {
    await admin.query(`ALTER DATABASE "${dbName}" ALLOW_CONNECTIONS false`);
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [dbName]);
  };
  const restore = () => admin.query(`ALTER DATABASE "${dbName}" ALLOW_CONNECTIONS true`);

  before(async () => {
    await admin.connect();
    await admin.query(`CREATE DATABASE "${dbName}"`);
    const url = new URL(pgUrl!);
    url.pathname = `/${dbName}`;
    const args = ['--config', configFile(CONFIG), '--db', url.toString()];
    server = await startServe(args);
    auth = apiKeyHeaders(args, 'events:read');
  });

  after(async () => {
    await server?.stop();
    await restore().catch(() => undefined);
    await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
    await admin.end();
  });

  test('503 with Retry-After during the outage, recovery after, no acknowledged write lost', { timeout: 180_000 }, async () => {
    const acked = new Map<number, number>(); // n → id
    const unavailable: Response[] = [];
    const unexpected: string[] = [];
    let next = 1;
    let running = true;
    const writers = Array.from({ length: 4 }, async () => {
      while (running) {
        const n = next++;
        const res = await fetch(`${server.url}/notes`, { method: 'POST', headers: json, body: JSON.stringify({ n }) }).catch((err: Error) => err);
        if (res instanceof Error) {
          unexpected.push(`no response: ${res.message}`);
          break;
        }
        if (res.status === 201) acked.set(n, (await res.json()).id);
        else if (res.status === 503) {
          unavailable.push(res);
          await res.text();
          await sleep(10);
        } else unexpected.push(`${res.status} ${await res.text()}`);
      }
    });

    try {
      const healthy = () => {
        assert.deepEqual(unexpected, [], `only 201 or 503; the server said:\n${server.output().slice(-3000)}`);
        return true;
      };
      await until('writes before the outage', () => healthy() && acked.size >= 20);
      await cut();
      const ackedBefore = acked.size;
      await until('503s during the outage', () => healthy() && unavailable.length >= 10);
      const read = await fetch(`${server.url}/notes?limit=5`);
      assert.equal(read.status, 503, 'reads fail cleanly too');
      assert.match(read.headers.get('content-type') ?? '', /^application\/problem\+json/);
      assert.match(read.headers.get('retry-after') ?? '', /^\d+$/);
      assert.equal((await read.json()).status, 503);

      await restore();
      await until('writes after the database is back', () => healthy() && acked.size >= ackedBefore + 40);
    } finally {
      running = false;
      await Promise.all(writers);
    }

    assert.deepEqual(unexpected, [], 'only 201 or 503');
    for (const res of unavailable.slice(0, 5)) {
      assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
      assert.match(res.headers.get('retry-after') ?? '', /^\d+$/);
    }
    // Every acknowledged write is there, with its event.
    for (const [n, id] of acked) {
      const res = await fetch(`${server.url}/notes/${id}`);
      assert.equal(res.status, 200, `acknowledged note ${n} (/notes/${id}) is missing`);
      assert.equal((await res.json()).n, n);
    }
    const created = new Set<number>();
    for (let url = '/events?limit=100'; ; ) {
      const page = await (await fetch(server.url + url, { headers: auth })).json();
      for (const e of page._embedded.events) created.add(e.recordId);
      if (!page._links.next) break;
      url = page._links.next.href;
    }
    for (const id of acked.values()) assert.ok(created.has(id), `no event for acknowledged /notes/${id}`);
  });
});

describe('PostgreSQL unreachable at start', () => {
  // Port 1 on loopback: nothing listens there, so every connection attempt is refused at once.
  const NOWHERE = 'postgres://restwell@127.0.0.1:1/nowhere';

  test('serve keeps retrying, with a log line per attempt, while --db-wait lasts', async () => {
    // A wait no test reaches: the test waits for the third attempt's line (the event), then stops the server.
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--port', '0', '--config', configFile(CONFIG), '--db', NOWHERE, '--db-wait', '3600'], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    try {
      await new Promise<void>((resolve, reject) => {
        child.stderr!.on('data', (d) => {
          stderr += d;
          if (stderr.includes('(attempt 3)')) resolve();
        });
        child.once('exit', (code) => reject(new Error(`serve exited (${code}) before its third attempt:\n${stderr}`)));
      });
    } finally {
      child.kill('SIGKILL');
    }
    const lines = stderr.split('\n').filter((l) => l.includes('unavailable (attempt'));
    for (const [i, line] of lines.slice(0, 3).entries()) {
      assert.match(line, new RegExp(`^restwell: database at postgres://restwell@127\\.0\\.0\\.1:1/nowhere unavailable \\(attempt ${i + 1}\\): .*ECONNREFUSED.*; retrying in [\\d.]+s$`));
    }
  });

  test('serve retries at least once however slow the machine, then exits with one clear line once --db-wait has passed', async () => {
    const err: Error = await startServe(['--config', configFile(CONFIG), '--db', NOWHERE, '--db-wait', '1']).then(
      (s: ServeProcess) => {
        void s.stop();
        throw new Error('serve started without a database');
      },
      (e: Error) => e,
    );
    assert.match(err.message, /exited \(1\)/);
    const retries = err.message.match(/unavailable \(attempt \d+\).*ECONNREFUSED.*retrying in/g) ?? [];
    const attempts = Number(/restwell: could not reach the database at postgres:\/\/restwell@127\.0\.0\.1:1\/nowhere within 1s \((\d+) attempts\)/.exec(err.message)?.[1]);
    assert.ok(attempts >= 2, err.message);
    assert.equal(retries.length, attempts - 1, 'a line for every attempt but the last');
  });
});
