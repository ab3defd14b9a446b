import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defineResources } from '../core/resource.js';
import { planSchema, shapeOf, type StoredShape } from './schema-plan.js';

const define = (search?: string[] | false) =>
  defineResources({ resources: { books: { fields: { title: { type: 'string' }, isbn: { type: 'string' }, pages: { type: 'integer' } }, ...(search === undefined ? {} : { search }) } } })[0];

test('search fields default to every string field, and the shape marks only them', () => {
  assert.deepEqual(define().search, ['title', 'isbn']);
  assert.deepEqual(define(false).search, []);
  assert.deepEqual(shapeOf(define(['title'])).fields, { title: { type: 'string', unique: false, index: false, required: false, search: true }, isbn: { type: 'string', unique: false, index: false, required: false }, pages: { type: 'integer', unique: false, index: false, required: false } });
});

test('the plan creates and drops search indexes as the config changes, and adds them to shapes stored before search existed', () => {
  const stored = (search?: string[] | false) => new Map<string, StoredShape>([['books', shapeOf(define(search))]]);
  assert.deepEqual(planSchema(stored(['title']), [define(['isbn'])], false).steps, [
    { kind: 'drop-search-index', resource: 'books', field: 'title' },
    { kind: 'create-search-index', resource: 'books', field: 'isbn' },
  ]);
  assert.deepEqual(planSchema(stored(false), [define()], false).steps.map((s) => s.kind), ['create-search-index', 'create-search-index']);
  assert.deepEqual(planSchema(stored(), [define()], false).steps, []);
});
