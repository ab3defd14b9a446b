import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { resolveConfig } from '../config/load.js';
import { defineResources } from '../core/resource.js';
import { printBanner, type BannerFacts } from './startup-banner.js';

function facts(): BannerFacts {
  const config = resolveConfig({ resources: { notes: { fields: { text: { type: 'string' } } } } }, { env: {}, overrides: { database: 'postgres://app:hunter2@db.internal/shop' } });
  return { config, resources: defineResources(config), port: 8123, workers: 2 };
}

function printed(env: NodeJS.ProcessEnv, terminal: boolean): string {
  const out = new PassThrough();
  let text = '';
  out.on('data', (d) => (text += d));
  printBanner(facts(), env, terminal, out);
  return text;
}

test('the start-up banner is text in a terminal and one JSON log line in a pipe (or with LOG_FORMAT=json); never the password', () => {
  const text = printed({}, true);
  assert.match(text, /^\nRestwell is serving notes on http:\/\/localhost:8123 \(database: postgres:\/\/app:\*\*\*@db\.internal\/shop, 2 workers\)\n {2}notes: read public · write needs scope notes:write\n/);
  assert.match(text, /^Create an API key \(printed once\): {2}.*keys create/m);

  for (const [env, terminal] of [[{}, false], [{ LOG_FORMAT: 'json' }, true], [{ NODE_ENV: 'production' }, true]] as const) {
    const json = printed(env, terminal);
    const lines = json.split('\n').filter(Boolean);
    assert.equal(lines.length, 1, json);
    const line = JSON.parse(lines[0]!);
    assert.equal(line.level, 30);
    assert.equal(typeof line.time, 'number');
    assert.equal(line.msg, 'Restwell is serving notes on http://localhost:8123 (database: postgres://app:***@db.internal/shop, 2 workers)');
    assert.deepEqual(line.access, ['notes: read public · write needs scope notes:write']);
    assert.equal(line.workers, 2);
    assert.match(line.createApiKey, /keys create/);
    assert.ok(!json.includes('hunter2'));
  }
  assert.ok(!text.includes('hunter2'));
});
