import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { documentFor, RICH_CONFIG } from '../test-support/openapi-lint.js';

const main = fileURLToPath(new URL('./main.ts', import.meta.url));
// The rich config's document is over 1 MB pretty-printed, spawnSync's default buffer.
const run = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', main, 'openapi', ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: { ...process.env, DATABASE_URL: '/nonexistent/dir/never.db' } });

describe('restwell openapi', () => {
  const dir = mkdtempSync(join(tmpdir(), 'restwell-openapi-'));
  const config = join(dir, 'restwell.json');
  writeFileSync(config, JSON.stringify(RICH_CONFIG));

  it('prints the document GET /openapi.json serves, without touching a database', () => {
    const res = run('--config', config);
    assert.equal(res.status, 0, res.stderr);
    assert.deepEqual(JSON.parse(res.stdout), documentFor(RICH_CONFIG));
  });

  it('writes it to a file with --output', () => {
    const out = join(dir, 'openapi.json');
    const res = run('--config', config, '--output', out);
    assert.equal(res.status, 0, res.stderr);
    assert.equal(res.stdout, '');
    assert.equal(JSON.parse(readFileSync(out, 'utf8')).openapi, '3.1.0');
  });

  it('stops with a message naming the key when the config is invalid', () => {
    writeFileSync(config, JSON.stringify({ resources: { things: { fields: { n: { type: 'nope' } } } } }));
    const res = run('--config', config);
    assert.equal(res.status, 1);
    assert.match(res.stderr, /resources\.things\.fields\.n\.type/);
  });
});
