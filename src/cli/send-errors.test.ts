import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const main = fileURLToPath(new URL('./main.ts', import.meta.url));
const db = join(mkdtempSync(join(tmpdir(), 'restwell-send-')), 'send.db');
const send = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', main, 'hooks', 'send', ...args, '--db', db], { encoding: 'utf8' });

test('hooks send with no server at the URL names the URL it tried and --url, without a stack', () => {
  // Port 1 on loopback: nothing listens there, so the connection is refused at once.
  const res = send('sms', '--url', 'http://127.0.0.1:1');
  assert.equal(res.status, 1, res.stderr);
  assert.match(res.stderr, /^restwell: could not send to http:\/\/127\.0\.0\.1:1\/webhooks\/sms \(ECONNREFUSED\): is `restwell serve` running at http:\/\/127\.0\.0\.1:1\? Pass the server's address with --url/);
  assert.doesNotMatch(res.stderr, /\n\s+at /, 'no stack lines');
});

test('hooks send for an unknown source names the configured sources', () => {
  const res = send('foo');
  assert.equal(res.status, 1, res.stderr);
  assert.match(res.stderr, /no webhook source named "foo"; configured: mail, sms/);
  assert.doesNotMatch(res.stderr, /\n\s+at /, 'no stack lines');
});
