import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findDuplicateMember, pointerAtOffset } from './json-members.js';

const duplicate = (text: string) => findDuplicateMember(text)?.pointer;

test('a member name repeated in one object is found with its pointer, at any depth', () => {
  assert.equal(duplicate('{"a":1,"a":2}'), '/a');
  assert.equal(duplicate('{"a":{"b":[{"x":1},{"x":1,"y":2,"x":3}]}}'), '/a/b/1/x');
  assert.equal(duplicate('{"":1,"":2}'), '/', 'the empty name too');
  assert.equal(duplicate('{"a/b~":1,"a/b~":2}'), '/a~1b~0');
  assert.equal(duplicate(`${'['.repeat(50_000)}{"k":1,"k":2}${']'.repeat(50_000)}`), `${'/0'.repeat(50_000)}/k`, 'without recursion');
});

test('names compare as parsed: escapes and quotes inside names are read, not matched as text', () => {
  assert.equal(duplicate('{"a":1,"\\u0061":2}'), '/a');
  assert.equal(duplicate('{"a\\"":1,"a\\u0022":2}'), '/a"');
  assert.equal(duplicate('{"a\\\\":1,"b":{"a\\\\":2}}'), undefined, 'an escaped backslash ends its string');
  assert.equal(duplicate('{"a":"\\"a\\":","b":"a"}'), undefined, 'a name-like value is a value');
});

test('the same name in different objects, in arrays and as values is no duplicate', () => {
  assert.equal(duplicate('[{"a":1},{"a":1}]'), undefined);
  assert.equal(duplicate('{"a":{"a":{"a":"a"}},"b":["a","a"]}'), undefined);
  assert.equal(duplicate(`{${Array.from({ length: 1000 }, (_, i) => `"k${i}":${i}`).join(',')}}`), undefined);
  assert.equal(duplicate('"just a string"'), undefined);
});

test('pointerAtOffset names the innermost value that holds a character', () => {
  const text = '{"a":[1,{"b":"xyz"}],"c":"q"}';
  assert.equal(pointerAtOffset(text, text.indexOf('xyz') + 1), '/a/1/b');
  assert.equal(pointerAtOffset(text, text.indexOf('"q"') + 1), '/c');
  assert.equal(pointerAtOffset(text, text.indexOf('"b"') + 1), '/a/1/b', 'a member name counts as its member');
  assert.equal(pointerAtOffset('["a","b\\"c"]', 8), '/1');
});
