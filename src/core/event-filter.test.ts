import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compareCodePoints, matchesCondition, matchesEventFilter, parseEventFilter, type EventFilter } from './event-filter.js';
import type { Filter } from './field-condition.js';
import { defineResources } from './resource.js';

const [characters] = defineResources({
  resources: { characters: { fields: { name: { type: 'string' }, age: { type: 'integer' }, side: { type: 'enum', values: ['light', 'dark'] }, born: { type: 'datetime' }, alive: { type: 'boolean' } } } },
} as never);
const resources = new Map([['characters', characters!]]);
const f = (field: string, op: Filter['op'], value: unknown): Filter => ({ field, op, value });

test('eq and ne: NULL (or a missing member) equals only null, and is "not equal" to every value', () => {
  assert.equal(matchesCondition(f('name', 'eq', 'Han'), 'Han'), true);
  assert.equal(matchesCondition(f('name', 'eq', 'Han'), 'han'), false);
  assert.equal(matchesCondition(f('name', 'eq', 'Han'), null), false);
  assert.equal(matchesCondition(f('name', 'eq', null), undefined), true);
  assert.equal(matchesCondition(f('name', 'ne', 'Han'), null), true);
  assert.equal(matchesCondition(f('name', 'ne', 'Han'), 'Han'), false);
  assert.equal(matchesCondition(f('name', 'ne', null), null), false);
  assert.equal(matchesCondition(f('name', 'ne', null), 'x'), true);
});

test('ranges: numbers by value, text by code point, NULL never in range', () => {
  assert.equal(matchesCondition(f('age', 'gt', 9), 10), true);
  assert.equal(matchesCondition(f('age', 'lte', 10), 10), true);
  assert.equal(matchesCondition(f('age', 'lt', 10), null), false);
  assert.equal(matchesCondition(f('age', 'gte', 10), undefined), false);
  assert.equal(matchesCondition(f('name', 'lt', 'b'), 'B'), true, 'upper case sorts before lower case');
  assert.equal(matchesCondition(f('name', 'gt', '\uffff'), '😀'), true, 'a character above U+FFFF sorts after U+FFFF');
  assert.equal(matchesCondition(f('born', 'lt', '2026-01-01T00:00:00.000Z'), '2025-12-31T23:59:59.999Z'), true);
  assert.equal(matchesCondition(f('alive', 'gt', false), true), true);
  assert.ok(compareCodePoints('a', 'ab') < 0 && compareCodePoints('\ue000', '\ud83d\ude00') < 0 && compareCodePoints('x', 'x') === 0);
});

test('in: any of the values, never NULL', () => {
  assert.equal(matchesCondition(f('age', 'in', [1, 2]), 2), true);
  assert.equal(matchesCondition(f('age', 'in', [1, 2]), 3), false);
  assert.equal(matchesCondition(f('age', 'in', [1, 2]), null), false);
});

test('contains and startsWith are case-sensitive and take % and _ literally', () => {
  assert.equal(matchesCondition(f('name', 'contains', 'an'), 'Han'), true);
  assert.equal(matchesCondition(f('name', 'contains', 'AN'), 'Han'), false);
  assert.equal(matchesCondition(f('name', 'startsWith', 'H'), 'Han'), true);
  assert.equal(matchesCondition(f('name', 'startsWith', 'h'), 'Han'), false);
  assert.equal(matchesCondition(f('name', 'contains', '%'), 'Han'), false);
  assert.equal(matchesCondition(f('name', 'contains', '_'), 'H_n'), true);
  assert.equal(matchesCondition(f('name', 'startsWith', 'H_'), 'Han'), false);
  assert.equal(matchesCondition(f('name', 'contains', 'a'), null), false);
});

test('icontains and istartsWith fold both sides as the engines do (final sigma included)', () => {
  assert.equal(matchesCondition(f('name', 'icontains', 'AN'), 'Han'), true);
  assert.equal(matchesCondition(f('name', 'istartsWith', 'h'), 'Han'), true);
  assert.equal(matchesCondition(f('name', 'icontains', 'ΛΟΓ'), 'λόγος'), false, 'accents are not folded');
  assert.equal(matchesCondition(f('name', 'icontains', 'ΓΟΣ'), 'λογος'), true, 'ς folds like σ');
  assert.equal(matchesCondition(f('name', 'istartsWith', 'É'), 'école'), true);
  assert.equal(matchesCondition(f('name', 'icontains', '%'), '100%'), true);
});

test('parseEventFilter checks recordId and each condition as a list URL is checked', () => {
  const filter = parseEventFilter(characters!, '007', [{ field: 'age', op: 'gte', value: '18', key: 'filter[age][gte]' }, { field: 'side', value: 'dark', key: 'filter[side]' }], resources);
  assert.deepEqual(filter, { resource: 'characters', recordId: '7', where: [f('age', 'gte', 18), f('side', 'eq', 'dark')] });
  assert.throws(() => parseEventFilter(characters!, 'x', [], resources), /recordId: "x" is not an id of characters/);
  assert.throws(() => parseEventFilter(characters!, undefined, [{ field: 'age', op: 'contains', value: '1', key: 'k' }], resources), /contains applies only to text fields/);
  assert.throws(() => parseEventFilter(characters!, undefined, [{ field: 'side', value: 'grey', key: 'k' }], resources), /"grey" is not one of light, dark/);
  assert.throws(() => parseEventFilter(characters!, undefined, [{ field: 'born', op: 'gt', value: 'soon', key: 'k' }], resources), /is not a date-time/);
  assert.deepEqual(parseEventFilter(characters!, undefined, [{ field: 'age', op: 'in', value: '1,2', key: 'k' }], resources).where, [f('age', 'in', [1, 2])]);
  assert.deepEqual(parseEventFilter(characters!, undefined, [{ field: 'born', op: 'lt', value: '2026-01-01T01:00:00+01:00', key: 'k' }], resources).where, [f('born', 'lt', '2026-01-01T00:00:00.000Z')]);
});

test('an event matches when it is about the resource (and record) and its data meets every condition', () => {
  const filter: EventFilter = { resource: 'characters', recordId: '7', where: [f('name', 'startsWith', 'H')] };
  assert.equal(matchesEventFilter(filter, { resource: 'characters', recordId: 7, data: { name: 'Han' } }), true);
  assert.equal(matchesEventFilter(filter, { resource: 'characters', recordId: 8, data: { name: 'Han' } }), false);
  assert.equal(matchesEventFilter(filter, { resource: 'notes', recordId: 7, data: { name: 'Han' } }), false);
  assert.equal(matchesEventFilter(filter, { resource: 'characters', recordId: 7, data: { name: 'Leia' } }), false);
  assert.equal(matchesEventFilter({ resource: 'characters', where: [] }, { resource: 'characters', recordId: 'x', data: {} }), true);
});
