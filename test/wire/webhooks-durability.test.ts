import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, statSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { DEMO_CONFIG } from '../../src/config/defaults.js';
import { PUBLIC_DEMO } from '../../src/test-support/test-server.js';
import { ROOT, startServe } from '../support-process.js';

const secrets = { MAIL_HOOK_USER: 'postmark', MAIL_HOOK_PASSWORD: 'kill-9-password', TWILIO_AUTH_TOKEN: 'f'.repeat(32) };

/** `restwell hooks send` as a user runs it. */
const hooksSend = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'hooks', 'send', ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, ...env } });

test('kill -9 right after a webhook 2xx: the delivery is in the inbox and its pending action runs after restart', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rw-hook-kill-'));
  const db = join(dir, 'data.db');
  const config = join(dir, 'demo-slow-worker.json');
  // The (public) demo, with the worker held back a minute so the kill surely lands between 2xx and action.
  writeFileSync(config, JSON.stringify({ ...PUBLIC_DEMO, webhooks: { ...DEMO_CONFIG.webhooks, workerDelayMs: 60_000 } }));

  const first = await startServe(['--db', db, '--config', config], secrets);
  const sent = hooksSend(['mail', '--config', config, '--url', first.url, '--text', 'Survives kill -9'], secrets);
  assert.equal(sent.status, 0, sent.stdout + sent.stderr);
  assert.match(sent.stdout, /HTTP 200/);
  assert.equal((await (await fetch(`${first.url}/messages`)).json()).count, 0, 'the action is still pending');
  await first.stop('SIGKILL');

  const second = await startServe(['--db', db, '--config', config], secrets);
  try {
    let messages: any;
    for (let i = 0; i < 100; i++) {
      messages = await (await fetch(`${second.url}/messages`)).json();
      if (messages.count) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(messages.count, 1, 'the pending store action ran after the restart');
    assert.equal(messages._embedded.messages[0].subject, 'Survives kill -9');
  } finally {
    await second.stop();
  }
});

test('the demo generates its webhook secrets once, keeps them next to the database, and prints working commands', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rw-hook-demo-'));
  const db = join(dir, 'restwell.db');
  const env = { MAIL_HOOK_USER: '', MAIL_HOOK_PASSWORD: '', TWILIO_AUTH_TOKEN: '' };
  // The banner as a person reads it (a terminal's), whose commands are run as printed.
  const server = await startServe(['--db', db], { ...env, LOG_FORMAT: 'pretty' });
  try {
    const file = join(dir, 'demo-secrets.json');
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    assert.match(saved.TWILIO_AUTH_TOKEN, /^[0-9a-f]{32}$/);
    const command = /hooks send sms (.*)\n/.exec(server.output());
    assert.ok(command, server.output());
    assert.match(command[1]!, /--text "who is homer\?" --url http:\/\/localhost:\d+ --db /);
    assert.match(server.output(), /hooks send mail /);
    // The printed key command, run as printed, gives a key that may write characters.
    const keyCommand = /Create an API key \(printed once\):\s+(.*)\n/.exec(server.output());
    assert.ok(keyCommand, server.output());
    const key = spawnSync('bash', ['-c', keyCommand[1]!], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, ...env } });
    assert.match(key.stdout, /^rw_\S+\n$/, key.stderr);
    const homer = await fetch(`${server.url}/characters`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key.stdout.trim()}` },
      body: JSON.stringify({ name: 'Homer', number: '555-7334' }),
    });
    assert.equal(homer.status, 201);
    const sms = hooksSend(['sms', '--text', 'who is homer?', '--url', server.url, '--db', db], env);
    assert.match(sms.stdout, /<Message>Homer: 555-7334<\/Message>/, sms.stdout + sms.stderr);
    const forged = hooksSend(['sms', '--text', 'who is homer?', '--url', server.url, '--db', db], { ...env, TWILIO_AUTH_TOKEN: '0'.repeat(32) });
    assert.match(forged.stdout, /HTTP 401/);
    assert.equal(forged.status, 1);
  } finally {
    await server.stop();
  }
  // A restart keeps the same secrets.
  const before = readFileSync(join(dir, 'demo-secrets.json'), 'utf8');
  const again = await startServe(['--db', db], env);
  await again.stop();
  assert.equal(readFileSync(join(dir, 'demo-secrets.json'), 'utf8'), before);
});
