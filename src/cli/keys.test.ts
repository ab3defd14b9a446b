import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const main = fileURLToPath(new URL('./main.ts', import.meta.url));

describe('restwell keys create --expires', () => {
  const db = join(mkdtempSync(join(tmpdir(), 'restwell-keys-')), 'keys.db');
  const run = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', main, 'keys', ...args, '--db', db], { encoding: 'utf8' });

  it('refuses a lifetime beyond ten years with the allowed range, and creates nothing', () => {
    for (const expires of ['99999999999999999999d', '3651d', '0s', 'soon']) {
      const res = run('create', '--name', 'ci', '--scopes', '*', '--expires', expires);
      assert.equal(res.status, 1, `${expires}: ${res.stderr}`);
      assert.match(res.stderr, /--expires.*from 1s to 3650d/s, expires);
      assert.doesNotMatch(res.stderr, /RangeError|Invalid time value|at .*\.ts:\d+/, 'a message, not a stack');
    }
    assert.match(run('list').stderr, /no API keys/);
  });

  it('accepts the longest lifetime', () => {
    const res = run('create', '--name', 'ci', '--scopes', '*', '--expires', '3650d');
    assert.equal(res.status, 0, res.stderr);
    assert.match(res.stdout, /^rw_/);
  });
});

describe('restwell keys with a bad config', () => {
  it('refuses it, naming the file and the key, before the database is created', () => {
    const dir = mkdtempSync(join(tmpdir(), 'restwell-keys-'));
    const config = join(dir, 'restwell.yaml');
    writeFileSync(config, 'resources:\n  people:\n    fields:\n      name: { type: string }\nauth:\n  rateLimit: { limit: 10, window: 1m, resources: { ghosts: { limit: 1, window: 1m } } }\n');
    const db = join(dir, 'never.db');
    const res = spawnSync(process.execPath, ['--import', 'tsx', main, 'keys', 'list', '--config', config, '--db', db], { encoding: 'utf8' });
    assert.equal(res.status, 1, res.stderr);
    assert.match(res.stderr, new RegExp(`Invalid configuration \\(${config.replace(/[.\\/]/g, '\\$&')}\\)`));
    assert.match(res.stderr, /auth\.rateLimit\.resources\.ghosts: no resource named "ghosts"/);
    assert.equal(existsSync(db), false);
  });
});
