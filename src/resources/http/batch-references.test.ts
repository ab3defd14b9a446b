import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ValidationError } from '../../core/errors.js';
import type { StoredRecord } from '../../core/record.js';
import { resolveReferences, type Referenced } from './batch-references.js';

const record = (id: number, data: Record<string, unknown>): StoredRecord => ({ id, version: 1, gen: 'g', createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', owner: null, data });
const earlier: Referenced[] = [
  { record: record(7, { name: 'Ursula', born: 1929 }), readable: true },
  { record: record(8, { secret: 's' }), readable: false },
];

test('a string that is exactly $N.name becomes that value, with its JSON type, anywhere in the body', () => {
  assert.deepEqual(resolveReferences({ author: '$0.id', meta: { born: '$0.born', list: ['$0.name', '$0.version'] } }, earlier, 2), {
    author: 7,
    meta: { born: 1929, list: ['Ursula', 1] },
  });
});

test('two or more $ then a digit lose the first $; other strings are left alone', () => {
  assert.deepEqual(resolveReferences(['$$0.id', '$$$1.x', '$0', 'US$0.id', '$0.id ', '$x.id'], earlier, 2), ['$0.id', '$$1.x', '$0', 'US$0.id', '$0.id ', '$x.id']);
});

test('references forward, to missing members, or into a record the caller may not read are 422 at their pointer', () => {
  const errors = (body: unknown, index = 2) => {
    try {
      resolveReferences(body, earlier, index);
    } catch (err) {
      assert.ok(err instanceof ValidationError);
      return err.errors.map((e) => e.pointer);
    }
    assert.fail('no error');
  };
  assert.deepEqual(errors({ a: '$2.id' }), ['/a']);
  assert.deepEqual(errors({ a: '$0.id' }, 0), ['/a']);
  assert.deepEqual(errors({ 'x/y': ['$0.nothing'] }), ['/x~1y/0']);
  assert.deepEqual(errors({ s: '$1.secret' }), ['/s']);
  assert.deepEqual(resolveReferences({ s: '$1.id' }, earlier, 2), { s: 8 }, 'an id is in the Location anyway');
});
