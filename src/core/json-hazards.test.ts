import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findJsonHazard } from './json-hazards.js';

const nested = (levels: number) => JSON.parse('['.repeat(levels) + ']'.repeat(levels));

test('plain JSON within the limit has no hazard', () => {
  assert.equal(findJsonHazard({ a: [1, { b: 'x', c: null, d: true }], constructor: 'fine', toString: 1 }, 3), undefined);
  assert.equal(findJsonHazard(1.5, 0), undefined);
  assert.equal(findJsonHazard({ a: undefined }, 1), undefined, 'an undefined member is an absent one');
});

test('depth counts like exceedsDepth and points at the first container past the limit', () => {
  assert.equal(findJsonHazard(nested(64), 64), undefined);
  assert.deepEqual(findJsonHazard({ a: { 'b/c': { '~d': [] } } }, 3), { kind: 'depth', pointer: '/a/b~1c/~0d' });
  assert.equal(findJsonHazard(nested(100_000), 64)?.kind, 'depth', 'measured without overflowing the stack');
});

test('non-finite numbers (what JSON.parse makes of 1e400) are found with their pointer', () => {
  assert.deepEqual(findJsonHazard(JSON.parse('{"a":[1,-1e400]}'), 64), { kind: 'number', pointer: '/a/1' });
  assert.deepEqual(findJsonHazard(JSON.parse('1e400'), 64), { kind: 'number', pointer: '' });
});

test('prototype-poisoning members are found as Fastify finds them', () => {
  assert.deepEqual(findJsonHazard(JSON.parse('{"a":{"__proto__":{"x":1}}}'), 64), { kind: 'prototype-key', pointer: '/a/__proto__' });
  assert.deepEqual(findJsonHazard(JSON.parse('[{"constructor":{"prototype":{}}}]'), 64), { kind: 'prototype-key', pointer: '/0/constructor' });
  assert.equal(findJsonHazard(JSON.parse('{"constructor":{"name":"x"}}'), 64), undefined, 'a constructor member without prototype is data');
});

test('values no JSON text can hold are found', () => {
  assert.deepEqual(findJsonHazard({ tags: { x: Object } }, 64), { kind: 'not-json', pointer: '/tags/x' });
});

test('lone surrogates in strings and member names are found at any depth; pairs are text', () => {
  assert.deepEqual(findJsonHazard(JSON.parse('{"a":[1,{"b":"x\\ud800"}]}'), 64), { kind: 'lone-surrogate', pointer: '/a/1/b' });
  assert.deepEqual(findJsonHazard(JSON.parse('"\\udc00"'), 64), { kind: 'lone-surrogate', pointer: '' });
  assert.deepEqual(findJsonHazard(JSON.parse('["\\ud83d\\ude00", "\\ude00\\ud83d"]'), 64), { kind: 'lone-surrogate', pointer: '/1' }, 'a low half before a high one pairs with nothing');
  // The pointer is shown to people: the lone half is written as its escape, so the text stays Unicode.
  assert.deepEqual(findJsonHazard(JSON.parse('{"k\\ud800":1}'), 64), { kind: 'lone-surrogate', pointer: '/k\\uD800' });
  assert.equal(findJsonHazard(JSON.parse('{"emoji":"😀 \\ud83d\\ude00","\\ud83d\\ude00":"\\\\ud800"}'), 64), undefined, 'pairs, and an escaped backslash before ud800, are fine');
});
