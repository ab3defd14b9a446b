import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, resolveConfig } from './load.js';

const problemsOf = (fields: Record<string, unknown>) => {
  try {
    resolveConfig({ resources: { people: { fields } } }, { env: {} });
  } catch (err) {
    assert.ok(err instanceof ConfigError);
    return err.problems;
  }
  return [];
};

test('renamedFrom takes an earlier name, or a list of them', () => {
  assert.deepEqual(problemsOf({ mobile: { type: 'string', renamedFrom: 'phone' } }), []);
  assert.deepEqual(problemsOf({ mobile: { type: 'string', renamedFrom: ['tel', 'phone'] } }), []);
  assert.ok(problemsOf({ mobile: { type: 'string', renamedFrom: 'no such name!' } }).includes('resources.people.fields.mobile.renamedFrom: must match pattern "^[a-zA-Z][a-zA-Z0-9_]{0,62}$"'));
  assert.ok(problemsOf({ mobile: { type: 'string', renamedFrom: [] } }).includes('resources.people.fields.mobile.renamedFrom: must NOT have fewer than 1 items'));
});

test('renamedFrom naming a field that still exists, the field itself, or claimed twice is a config error', () => {
  assert.deepEqual(problemsOf({ phone: { type: 'string' }, mobile: { type: 'string', renamedFrom: 'phone' } }), [
    'resources.people.fields.mobile.renamedFrom: "phone" is still a field of people, so its values cannot move to mobile; remove the field phone from the config to rename it, or remove renamedFrom if mobile is a field of its own',
  ]);
  assert.deepEqual(problemsOf({ mobile: { type: 'string', renamedFrom: 'mobile' } }), [
    `resources.people.fields.mobile.renamedFrom: "mobile" is this field's own name; list only the names it had before, or remove renamedFrom`,
  ]);
  assert.deepEqual(problemsOf({ mobile: { type: 'string', renamedFrom: 'phone' }, cell: { type: 'string', renamedFrom: ['tel', 'phone'] } }), [
    'resources.people.fields.cell.renamedFrom: "phone" is also the earlier name of mobile; a stored field can be renamed to one field only',
  ]);
});
