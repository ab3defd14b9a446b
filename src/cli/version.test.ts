import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const main = fileURLToPath(new URL('./main.ts', import.meta.url));
const version = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version as string;

test('restwell --version (and -V) prints the package.json version and exits 0', () => {
  for (const flag of ['--version', '-V']) {
    const res = spawnSync(process.execPath, ['--import', 'tsx', main, flag], { encoding: 'utf8' });
    assert.equal(res.status, 0, res.stderr);
    assert.equal(res.stdout, `${version}\n`);
  }
});
