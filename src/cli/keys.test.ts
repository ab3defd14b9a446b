import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

// The published CLI (dist/, which `npm test` builds first): it starts in a fraction of tsx's time.
const main = fileURLToPath(new URL('../../bin/restwell.js', import.meta.url));

describe('restwell keys create --expires', () => {
  const db = join(mkdtempSync(join(tmpdir(), 'restwell-keys-')), 'keys.db');
  const run = (...args: string[]) => spawnSync(process.execPath, [main, 'keys', ...args, '--db', db], { encoding: 'utf8' });

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
    const res = spawnSync(process.execPath, [main, 'keys', 'list', '--config', config, '--db', db], { encoding: 'utf8' });
    assert.equal(res.status, 1, res.stderr);
    assert.match(res.stderr, new RegExp(`Invalid configuration \\(${config.replace(/[.\\/]/g, '\\$&')}\\)`));
    assert.match(res.stderr, /auth\.rateLimit\.resources\.ghosts: no resource named "ghosts"/);
    assert.equal(existsSync(db), false);
  });
});

describe('restwell keys create / clients create with a scope nothing checks', () => {
  const dir = mkdtempSync(join(tmpdir(), 'restwell-scopes-'));
  const config = join(dir, 'restwell.yaml');
  writeFileSync(config, 'server: { port: 9123, host: api.internal }\nresources:\n  characters:\n    fields:\n      name: { type: string }\n    access: { read: public, write: [characters:write] }\n');
  const db = join(dir, 'scopes.db');
  const run = (...args: string[]) => spawnSync(process.execPath, [main, ...args, '--config', config, '--db', db], { encoding: 'utf8' });

  it('keys create warns about each unknown scope, naming the likely one, and still creates the key', () => {
    const res = run('keys', 'create', '--name', 'typo', '--scopes', 'charcters:write events:read billing:admin');
    assert.equal(res.status, 0, res.stderr);
    assert.match(res.stdout, /^rw_/);
    assert.match(res.stderr, /warning: scope "charcters:write" is not used by this server's config or routes, so it grants nothing; did you mean characters:write\?/);
    assert.match(res.stderr, /warning: scope "billing:admin" is not used by this server's config or routes, so it grants nothing\n/);
    assert.doesNotMatch(res.stderr, /"events:read"/, 'a scope the server checks draws no warning');
    assert.match(run('keys', 'list').stdout, /typo\tcharcters:write events:read billing:admin/);
  });

  it('keys create with known scopes warns about nothing', () => {
    const res = run('keys', 'create', '--name', 'fine', '--scopes', 'characters:write webhooks:write *');
    assert.equal(res.status, 0, res.stderr);
    assert.doesNotMatch(res.stderr, /warning/);
  });

  it('clients create warns the same way, and its curl names the configured server, or --url', () => {
    const res = run('clients', 'create', '--name', 'svc', '--scopes', 'characters:wirte');
    assert.equal(res.status, 0, res.stderr);
    assert.match(res.stderr, /warning: scope "characters:wirte" .*did you mean characters:write\?/);
    assert.match(res.stderr, /grant_type=client_credentials http:\/\/api\.internal:9123\/oauth\/token\n/);
    assert.equal(JSON.parse(res.stdout).scopes[0], 'characters:wirte');
    const pointed = run('clients', 'create', '--name', 'svc2', '--scopes', 'characters:write', '--url', 'https://api.example.com/');
    assert.equal(pointed.status, 0, pointed.stderr);
    assert.match(pointed.stderr, /grant_type=client_credentials https:\/\/api\.example\.com\/oauth\/token\n/);
  });
});
