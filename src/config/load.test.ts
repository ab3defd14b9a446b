import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ConfigError, loadConfig, resolveConfig } from './load.js';

const problemsOf = (raw: unknown, env: NodeJS.ProcessEnv = {}) => {
  try {
    resolveConfig(raw, { env });
  } catch (err) {
    assert.ok(err instanceof ConfigError);
    return err.problems;
  }
  assert.fail('the config was accepted');
};

test('no file: the demo config with characters and messages', () => {
  const c = loadConfig({ env: { MAIL_HOOK_USER: 'u', MAIL_HOOK_PASSWORD: 'p', TWILIO_AUTH_TOKEN: 't' } });
  assert.deepEqual(Object.keys(c.resources), ['characters', 'messages']);
  assert.deepEqual(Object.keys(c.webhooks.sources), ['mail', 'sms']);
  // `restwell serve` supplies generated demo secrets; without them the demo names what is missing.
  assert.throws(() => loadConfig({ env: {} }), /webhooks\.sources\.sms\.verify\.authToken: environment variable TWILIO_AUTH_TOKEN is not set/);
  assert.deepEqual(c.resources.characters.fields.name, { type: 'string', required: true, unique: true, maxLength: 200 });
  assert.equal(c.server.port, 8080);
  assert.equal(c.server.bodyLimit, 1024 * 1024);
  assert.equal(c.database, './data/restwell.db');
});

test('flags win over the environment, which wins over the file', () => {
  const c = resolveConfig({ server: { port: 1000 }, database: 'a.db', resources: {} }, { env: { PORT: '2000', DATABASE_URL: 'b.db' } });
  assert.equal(c.server.port, 2000);
  assert.equal(c.database, 'b.db');
  const f = resolveConfig({ resources: {} }, { env: { PORT: '2000' }, overrides: { port: 3000, database: 'c.db' } });
  assert.equal(f.server.port, 3000);
  assert.equal(f.database, 'c.db');
});

test('errors name the key path and the problem', () => {
  assert.deepEqual(problemsOf({ resources: { characters: { fields: { name: { type: 'text' } } } } }), [
    'resources.characters.fields.name.type: must be one of: string, integer, number, boolean, datetime, json, enum, reference',
  ]);
  assert.deepEqual(problemsOf({ resources: { characters: { fields: { name: { type: 'string', requird: true } } } } }), [
    'resources.characters.fields.name: unknown key "requird"',
  ]);
  assert.deepEqual(problemsOf({ resources: { characters: {} } }), ['resources.characters: missing required key "fields"']);
  assert.ok(problemsOf({ resources: { characters: { fields: { id: { type: 'string' } } } } }).some((p) => p.includes('"id" is not an allowed name')));
  assert.deepEqual(problemsOf({ resources: { q: { fields: { by: { type: 'reference', to: 'people' } } } } }), ['resources.q.fields.by.to: no resource named "people"']);
  assert.ok(problemsOf({ resources: { q: { fields: { mood: { type: 'enum' } } } } }).some((p) => p.includes('missing required key "values"')));
  assert.ok(problemsOf({ server: { bodyLimit: 'lots' }, resources: {} }).some((p) => p.startsWith('server.bodyLimit')));
});

test('${ENV} and ${ENV:-default} are substituted; a missing variable is named', () => {
  const c = resolveConfig({ database: '${DB:-x.db}', server: { host: '${HOSTNAME_X}' }, resources: {} }, { env: { HOSTNAME_X: '127.0.0.1' } });
  assert.equal(c.database, 'x.db');
  assert.equal(c.server.host, '127.0.0.1');
  assert.deepEqual(problemsOf({ webhooks: { sources: { sms: { verify: { authToken: '${TWILIO_TOKEN}' } } } }, resources: {} }), [
    'webhooks.sources.sms.verify.authToken: environment variable TWILIO_TOKEN is not set',
  ]);
});

test('YAML and JSON files; unreadable or unparsable files are reported', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rw-config-'));
  writeFileSync(join(dir, 'a.yaml'), 'resources:\n  notes:\n    fields:\n      text: { type: string }\n');
  writeFileSync(join(dir, 'b.json'), '{"resources": {"notes": {"fields": {"text": {"type": "string"}}}}}');
  writeFileSync(join(dir, 'c.yaml'), 'resources: [unclosed');
  assert.deepEqual(Object.keys(loadConfig({ file: join(dir, 'a.yaml'), env: {} }).resources), ['notes']);
  assert.deepEqual(Object.keys(loadConfig({ file: join(dir, 'b.json'), env: {} }).resources), ['notes']);
  assert.throws(() => loadConfig({ file: join(dir, 'c.yaml'), env: {} }), /not valid YAML/);
  assert.throws(() => loadConfig({ file: join(dir, 'missing.yaml'), env: {} }), /cannot read .*ENOENT/);
});

test('server timeouts and the connection cap: defaults, overrides, and headers never outlasting the request', () => {
  const d = resolveConfig({ resources: {} });
  assert.deepEqual([d.server.headersTimeoutMs, d.server.requestTimeoutMs, d.server.keepAliveTimeoutMs, d.server.maxConnectionsPerClient], [10_000, 30_000, 72_000, 256]);
  const c = resolveConfig({ server: { headersTimeout: '1s', requestTimeout: '2m', maxConnectionsPerClient: 4 }, resources: {} });
  assert.deepEqual([c.server.headersTimeoutMs, c.server.requestTimeoutMs, c.server.maxConnectionsPerClient], [1000, 120_000, 4]);
  assert.deepEqual(problemsOf({ server: { headersTimeout: '1m', requestTimeout: '30s' }, resources: {} }), [
    'server.headersTimeout: 1m is longer than server.requestTimeout (30s), which includes the headers',
  ]);
  assert.ok(problemsOf({ server: { requestTimeout: '0s' }, resources: {} }).some((p) => p.startsWith('server.requestTimeout')));
  assert.ok(problemsOf({ server: { maxConnectionsPerClient: 0 }, resources: {} }).some((p) => p.startsWith('server.maxConnectionsPerClient')));
});

test('durations are bounded so that no lifetime overflows a date', () => {
  const auth = (tokenTtl: string) => ({ resources: {}, auth: { tokenTtl } });
  assert.match(problemsOf(auth('99999999d')).join('\n'), /auth\.tokenTtl/);
  assert.match(problemsOf({ resources: {}, server: { requestTimeout: '0s' } }).join('\n'), /server\.requestTimeout/);
  assert.equal(resolveConfig(auth('3650d'), { env: {} }).auth.tokenTtl, '3650d');
  assert.equal(resolveConfig(auth('86400s'), { env: {} }).auth.tokenTtl, '86400s');
});

test('field semantics are checked at load: defaults that do not fit, impossible ranges, broken patterns', () => {
  const one = (field: Record<string, unknown>, extra: Record<string, unknown> = {}) => problemsOf({ resources: { things: { fields: { f: field } }, ...extra } });
  assert.deepEqual(one({ type: 'integer', default: 'seven' }), ['resources.things.fields.f.default: "seven" does not fit the field\'s type: must be an integer']);
  assert.deepEqual(one({ type: 'integer', default: 1.5 }), ['resources.things.fields.f.default: 1.5 does not fit the field\'s type: must be an integer']);
  assert.deepEqual(one({ type: 'enum', values: ['a', 'b'], default: 'c' }), ['resources.things.fields.f.default: "c" is not one of the values: a, b']);
  assert.deepEqual(one({ type: 'integer', minimum: 0, maximum: 10, default: 11 }), ['resources.things.fields.f.default: 11 must be <= 10']);
  assert.deepEqual(one({ type: 'string', maxLength: 3, default: 'long' }), ['resources.things.fields.f.default: "long" must be at most 3 characters long']);
  assert.deepEqual(one({ type: 'string', minLength: 2, default: 'x' }), ['resources.things.fields.f.default: "x" must be at least 2 characters long']);
  assert.deepEqual(one({ type: 'string', pattern: '^[0-9]+$', default: 'x1' }), ['resources.things.fields.f.default: "x1" must match the pattern ^[0-9]+$']);
  assert.deepEqual(one({ type: 'datetime', default: 'tomorrow' }), ['resources.things.fields.f.default: "tomorrow" must be an RFC 3339 date-time, e.g. 2026-01-31T12:00:00Z']);
  assert.deepEqual(one({ type: 'boolean', default: 'yes' }), ['resources.things.fields.f.default: "yes" does not fit the field\'s type: must be a boolean']);
  assert.deepEqual(one({ type: 'reference', to: 'things', default: 'x' }), ['resources.things.fields.f.default: "x" does not fit the field\'s type: must be an integer']);
  assert.deepEqual(one({ type: 'string', required: true, default: null }), ['resources.things.fields.f.default: cannot be null on a required field; remove it or give a value']);
  assert.deepEqual(one({ type: 'integer', minimum: 5, maximum: 1 }), ['resources.things.fields.f.minimum: 5 is greater than maximum (1), so no value could be valid']);
  assert.deepEqual(one({ type: 'string', minLength: 5, maxLength: 1 }), ['resources.things.fields.f.minLength: 5 is greater than maxLength (1), so no value could be valid']);
  assert.deepEqual(one({ type: 'enum', values: [] }), ['resources.things.fields.f.values: an enum needs at least one value']);
  assert.deepEqual(one({ type: 'enum', values: ['a', 'a'] }), ['resources.things.fields.f.values: lists the same value twice (items 0 and 1)']);
  assert.deepEqual(one({ type: 'string', unique: true, default: 'x' }), [
    'resources.things.fields.f.default: a unique field cannot have a default: only one record could ever hold it, and the next one that leaves the field out would be refused (409)',
  ]);
  assert.deepEqual(one({ type: 'integer', maxLength: 3 }), ['resources.things.fields.f.maxLength: does not apply to a field of type integer (only to string); remove it or change the type']);
  assert.deepEqual(one({ type: 'string', values: ['a'] }), ['resources.things.fields.f.values: does not apply to a field of type string (only to enum); remove it or change the type']);
  assert.deepEqual(one({ type: 'string', pattern: '(' }), ['resources.things.fields.f.pattern: is not a valid regular expression']);
  // Valid without the u flag, not with it, which is how request bodies are checked: refused here rather than crashing later.
  assert.match(one({ type: 'string', pattern: '^[a-z\\_]+$' }).join('\n'), /^resources\.things\.fields\.f\.pattern: is not a valid regular expression \(Unicode mode, as values are checked\): /);
  assert.deepEqual(one({ type: 'reference', to: 'ghosts' }), ['resources.things.fields.f.to: no resource named "ghosts"']);
});

test('defaults that fit are accepted, a uuid reference default included; null is no default on an optional field', () => {
  const c = resolveConfig({
    resources: {
      owners: { id: 'uuid', fields: { n: { type: 'string' } } },
      things: {
        fields: {
          a: { type: 'integer', required: true, minimum: 0, maximum: 10, default: 10 },
          b: { type: 'enum', values: ['x', 'y'], required: true, default: 'y' },
          c: { type: 'datetime', default: '2026-01-01T00:00:00Z' },
          d: { type: 'json', default: { any: ['thing'] } },
          e: { type: 'reference', to: 'owners', default: '0192f5e2-7c3a-7d4e-8f00-000000000001' },
          f: { type: 'string', pattern: '^[a-z]+$', default: null },
        },
      },
    },
  });
  assert.equal(c.resources.things.fields.b.default, 'y');
  assert.match(problemsOf({ resources: { owners: { id: 'uuid', fields: {} }, things: { fields: { e: { type: 'reference', to: 'owners', default: 7 } } } } }).join(), /default: 7 does not fit the field's type: must be a string/);
});

test('id: string is accepted; a reference to it takes string ids of the rule as its default; other id types are named', () => {
  const c = resolveConfig({
    resources: {
      tags: { id: 'string', fields: { n: { type: 'string' } } },
      things: { fields: { t: { type: 'reference', to: 'tags', default: 'Jz5f9_a' } } },
    },
  });
  assert.equal(c.resources.tags.id, 'string');
  const tags = { id: 'string', fields: {} };
  assert.match(problemsOf({ resources: { tags, things: { fields: { t: { type: 'reference', to: 'tags', default: 7 } } } } }).join(), /default: 7 does not fit the field's type: must be a string/);
  assert.match(problemsOf({ resources: { tags, things: { fields: { t: { type: 'reference', to: 'tags', default: 'a b' } } } } }).join(), /resources\.things\.fields\.t\.default: "a b" /);
  assert.match(problemsOf({ resources: { tags: { id: 'text', fields: {} } } }).join(), /resources\.tags\.id: must be one of: integer, uuid, string/);
});

test('server.recordLimit: bodyLimit by default, a storing or emitting source\'s larger bodyLimit, or as given up to 256mb', () => {
  const resources = { notes: { fields: { text: { type: 'string' } } } };
  const limitOf = (raw: Record<string, unknown>) => resolveConfig({ resources, ...raw }, { env: {} }).server.recordLimit;
  assert.equal(limitOf({}), 1024 * 1024);
  assert.equal(limitOf({ server: { bodyLimit: '2mb' } }), 2 * 1024 * 1024);
  const source = (actions: unknown[]) => ({ webhooks: { sources: { in: { provider: 'generic', verify: 'none', bodyLimit: '10mb', actions } } } });
  assert.equal(limitOf(source([{ store: 'notes' }])), 10 * 1024 * 1024, 'what a source accepts, it can store');
  assert.equal(limitOf(source([{ emit: true }])), 10 * 1024 * 1024);
  assert.equal(limitOf(source([])), 1024 * 1024, 'a source that keeps nothing does not raise it');
  assert.equal(limitOf({ server: { recordLimit: '64kb' }, ...source([{ store: 'notes' }]) }), 64 * 1024);
  assert.equal(limitOf({ server: { recordLimit: 5000 } }), 5000);
  assert.ok(problemsOf({ resources, server: { recordLimit: '300mb' } }).some((p) => p.startsWith('server.recordLimit: 300mb is more than 256mb')));
  assert.ok(problemsOf({ resources, server: { recordLimit: 'huge' } }).some((p) => p.startsWith('server.recordLimit')));
});
