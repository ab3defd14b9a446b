import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, resolveConfig } from '../../config/load.js';
import { defineResources } from '../../core/resource.js';
import { RecordValidator } from '../../core/validate.js';
import { compileSources } from './sources.js';

const compile = (sources: Record<string, unknown>, origin?: string) => {
  const config = resolveConfig({ resources: { people: { fields: { name: { type: 'string' } } }, profile: { singular: true, fields: {} } }, webhooks: { sources } }, { env: {} }, origin);
  const list = defineResources(config);
  const validators = new Map(list.map((r) => [r.name, new RecordValidator(r, list, config.server.maxJsonDepth, config.server.recordLimit)]));
  return compileSources(config, new Map(list.map((r) => [r.name, r])), validators);
};

const problemsOf = (sources: Record<string, unknown>) => {
  try {
    compile(sources);
    return [];
  } catch (err) {
    assert.ok(err instanceof ConfigError);
    return err.problems;
  }
};

test('a source whose verify config its provider cannot use stops start-up, naming the key', () => {
  assert.deepEqual(problemsOf({ a: { provider: 'twilio', verify: { secret: 'x' } } }), ['webhooks.sources.a.verify: provider twilio needs verify.authToken, or verify.username + verify.password (or verify: none)']);
  assert.match(problemsOf({ a: { provider: 'standard-webhooks', verify: { secret: 'whsec_' } } })[0]!, /^webhooks\.sources\.a\.verify: .*whsec_/);
  assert.deepEqual(problemsOf({ a: { provider: 'generic', verify: 'none' } }), []);
});

test('actions must name existing resources and fields', () => {
  assert.deepEqual(problemsOf({ a: { provider: 'generic', verify: 'none', actions: [{ store: 'nope' }] } }), ['webhooks.sources.a.actions.0.store: no resource named "nope"']);
  assert.deepEqual(problemsOf({ a: { provider: 'generic', verify: 'none', actions: [{ store: 'people', map: { age: 'x' } }] } }), ['webhooks.sources.a.actions.0.map.age: people has no field "age"']);
  assert.deepEqual(problemsOf({ a: { provider: 'generic', verify: 'none', actions: [{ store: 'profile' }] } }), ['webhooks.sources.a.actions.0.store: profile is singular (one object), so it cannot take a record per delivery; store into a collection']);
  assert.deepEqual(problemsOf({ a: { provider: 'twilio', verify: 'none', actions: [{ reply: { lookup: 'people', by: 'nick', template: '{name}' } }] } }), ['webhooks.sources.a.actions.0.reply.by: people has no field "nick"']);
  assert.deepEqual(problemsOf({ a: { provider: 'github', verify: 'none', actions: [{ reply: { lookup: 'people', by: 'name', template: '{name}' } }] } }), ['webhooks.sources.a.actions: reply answers text messages; provider github sends none (use twilio or vonage)']);
});

test('an unknown provider is named with the known ones, and the config file with it', () => {
  assert.deepEqual(problemsOf({ a: { provider: 'fax', verify: 'none' } }), [
    'webhooks.sources.a.provider: unknown provider "fax"; known: postmark, sendgrid, mailgun, cloudmailin, twilio, vonage, standard-webhooks, github, stripe, generic',
  ]);
  assert.throws(() => compile({ a: { provider: 'fax', verify: 'none' } }, 'hooks.yaml'), /^ConfigError: Invalid configuration \(hooks\.yaml\):/);
});

test('the config schema checks the shape of a source', () => {
  assert.throws(() => resolveConfig({ webhooks: { sources: { a: { provider: 'Fax!', verify: 'none' } } } }, { env: {} }), /webhooks\.sources\.a\.provider: must match pattern/);
  assert.throws(() => resolveConfig({ webhooks: { sources: { a: { provider: 'github' } } } }, { env: {} }), /webhooks\.sources\.a: missing required key "verify"/);
});
