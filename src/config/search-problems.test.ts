import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolveConfig } from './load.js';

const problemsOf = (search: unknown) => {
  try {
    resolveConfig({ resources: { books: { fields: { title: { type: 'string' }, meta: { type: 'json' } }, search } } }, { env: {} });
    return '';
  } catch (err) {
    return (err as Error).message;
  }
};

test('a resource’s search list names string or enum fields it declares, or is false', () => {
  assert.equal(problemsOf(['title']), '');
  assert.equal(problemsOf(false), '');
  assert.match(problemsOf(['nope']), /resources\.books\.search: no field named "nope"/);
  assert.match(problemsOf(['meta']), /resources\.books\.search: "meta" is json; q= searches string and enum fields only/);
  assert.match(problemsOf(true), /resources\.books\.search/);
});
