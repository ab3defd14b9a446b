import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
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
