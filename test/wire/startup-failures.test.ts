import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ROOT } from '../support-process.js';

/** `node bin/restwell.js …` run to its end, as a user would (the server must stop by itself). */
function restwell(args: string[]) {
  return spawnSync(process.execPath, ['bin/restwell.js', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000, env: { ...process.env, LOG_LEVEL: 'warn', LOG_FORMAT: 'json' } });
}

/** One line on stderr, no stack trace, exit code 1. */
function assertOneLineFailure(result: ReturnType<typeof restwell>, message: RegExp): void {
  assert.equal(result.status, 1, `exit code (stderr: ${result.stderr})`);
  const lines = result.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, `one line:\n${result.stderr}`);
  assert.match(lines[0]!, message);
  assert.doesNotMatch(result.stderr, /\n\s+at |Error:/);
}

describe('start-up failures are one clear line and exit code 1', () => {
  test('a port in use', async () => {
    const blocker = createServer();
    blocker.listen(0, '127.0.0.1');
    await once(blocker, 'listening');
    const port = (blocker.address() as { port: number }).port;
    try {
      const db = join(mkdtempSync(join(tmpdir(), 'rw-port-')), 'data.db');
      const result = restwell(['serve', '--port', String(port), '--host', '127.0.0.1', '--db', db]);
      assertOneLineFailure(result, new RegExp(`^restwell: port ${port} on 127\\.0\\.0\\.1 is already in use; stop the other server or choose another with --port or PORT$`));
      // With workers the primary checks before forking any, instead of restarting workers that cannot listen.
      const workers = restwell(['serve', '--port', String(port), '--host', '127.0.0.1', '--db', db, '--workers', '2']);
      assertOneLineFailure(workers, /^restwell: port \d+ on 127\.0\.0\.1 is already in use;/);
    } finally {
      blocker.close();
    }
  });

  const pg = process.env.TEST_DATABASE_URL;
  test('a PostgreSQL database that does not exist fails at once (no retry) and says how to create it', { skip: !pg && 'set TEST_DATABASE_URL to a reachable PostgreSQL server' }, () => {
    const url = new URL(pg!);
    url.pathname = '/restwell_missing_db_xyz';
    url.search = '';
    const result = restwell(['serve', '--port', '0', '--host', '127.0.0.1', '--db', url.toString()]);
    assertOneLineFailure(result, /^restwell: database "restwell_missing_db_xyz" does not exist on PostgreSQL at [^;]+; create it with: createdb -h \S+ -p \d+ (-U \S+ )?restwell_missing_db_xyz$/);
    assert.doesNotMatch(result.stderr, /retrying/);
  });

  test('an unknown PostgreSQL role fails at once (no retry)', { skip: !pg && 'set TEST_DATABASE_URL to a reachable PostgreSQL server' }, () => {
    const url = new URL(pg!);
    url.username = 'restwell_no_such_role_xyz';
    url.password = '';
    const result = restwell(['serve', '--port', '0', '--host', '127.0.0.1', '--db', url.toString()]);
    assertOneLineFailure(result, /^restwell: PostgreSQL at \S+ refused user "restwell_no_such_role_xyz": .*\((28000|28P01)\)/);
    assert.doesNotMatch(result.stderr, /retrying/);
  });

  test('an unreachable PostgreSQL server is still retried until --db-wait runs out (at least once, however slow the machine)', () => {
    const result = restwell(['serve', '--port', '0', '--host', '127.0.0.1', '--db', 'postgres://postgres@127.0.0.1:1/none', '--db-wait', '1']);
    assert.equal(result.status, 1);
    const lines = result.stderr.trimEnd().split('\n');
    const attempts = Number(/^restwell: could not reach the database at postgres:\/\/postgres@127\.0\.0\.1:1\/none within 1s \((\d+) attempts\)/.exec(lines.at(-1)!)?.[1]);
    assert.ok(attempts >= 2, result.stderr);
    assert.equal(lines.filter((l) => /retrying in/.test(l)).length, attempts - 1);
  });

  test('--db-wait 0 tries once and fails with one line', () => {
    const result = restwell(['serve', '--port', '0', '--host', '127.0.0.1', '--db', 'postgres://postgres@127.0.0.1:1/none', '--db-wait', '0']);
    assertOneLineFailure(result, /^restwell: could not reach the database at postgres:\/\/postgres@127\.0\.0\.1:1\/none \(1 attempt, --db-wait 0\): .*ECONNREFUSED.*; check that it is running and reachable, or wait longer with --db-wait$/);
  });
});
