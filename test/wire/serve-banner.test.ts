import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { test } from 'node:test';
import { configFile, startServe, type ServeProcess } from '../support-process.js';

/**
 * Stops the server and returns all it printed. A request answered first means start-up (banner
 * and warning included) has run to its end; the pipes may still hold output when it exits.
 */
async function stopped(server: ServeProcess): Promise<string> {
  await (await fetch(`${server.url}/notes`)).arrayBuffer();
  const closed = once(server.child, 'close');
  await server.stop();
  await closed;
  return server.output();
}

const CONFIG = {
  resources: {
    notes: { fields: { text: { type: 'string' } } },
    drafts: { fields: { text: { type: 'string' } }, access: { create: 'public' } },
  },
};

test('serve prints each resource’s effective access (a JSON log line in a pipe, text for a terminal), and warns once on stderr when it listens beyond loopback with open writes', async () => {
  const config = configFile(CONFIG);
  const db = join(mkdtempSync(join(tmpdir(), 'rw-banner-')), 'data.db');
  const wide = await startServe(['--config', config, '--db', db, '--host', '0.0.0.0']);
  const out = await stopped(wide);
  // stdout is a pipe: the banner is a JSON log line like every other line there.
  const lines = wide.stdout().split('\n').filter(Boolean).map((line) => JSON.parse(line));
  const banner = lines.find((l) => /^Restwell is serving notes, drafts on http:\/\/localhost:\d+ \(database: /.test(l.msg));
  assert.ok(banner, wide.stdout());
  assert.equal(banner.level, 30);
  assert.deepEqual(banner.access, [
    'notes: read public · write needs scope notes:write',
    'drafts: read public · create public · update needs scope drafts:write · delete needs scope drafts:write',
  ]);
  assert.equal(banner.url, `http://localhost:${wide.port}`);
  assert.match(banner.createApiKey, /keys create/);
  const warnings = out.split('\n').filter((l) => l.includes('warning: listening on'));
  assert.deepEqual(warnings, [
    'restwell: warning: listening on 0.0.0.0, reachable beyond this machine, while anyone can write without a token: drafts (create: public). Require scopes in `access` (and verify webhooks), or listen on loopback only: --host 127.0.0.1',
  ]);

  // LOG_FORMAT=pretty (what a terminal gets): the banner is text for a person.
  const local = await startServe(['--config', config, '--db', db], { LOG_FORMAT: 'pretty' });
  const draft = await fetch(`${local.url}/drafts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"text":"x"}' });
  assert.equal(draft.status, 201);
  const quiet = await stopped(local);
  assert.match(local.stdout(), /^ {2}notes: read public · write needs scope notes:write$/m);
  assert.match(local.stdout(), /^ {2}drafts: read public · create public · update needs scope drafts:write · delete needs scope drafts:write$/m);
  assert.doesNotMatch(quiet, /warning: listening on/, 'loopback only: nothing to warn about');

  // A required field the existing draft lacks, with no default: start-up is refused, saying how to fix it.
  const stricter = configFile({ resources: { ...CONFIG.resources, drafts: { ...CONFIG.resources.drafts, fields: { text: { type: 'string' }, title: { type: 'string', required: true } } } } });
  await assert.rejects(startServe(['--config', stricter, '--db', db]), /drafts\.fields\.title: is required, but 1 existing record of drafts has no value for it\. Either give the field a `default`/);
});
