import assert from 'node:assert/strict';
import { test } from 'node:test';
import { storedReadOf } from './patch-reads.js';

test('test, copy and move read stored values; so does any operation below a top-level member', () => {
  assert.match(storedReadOf([{ op: 'test', path: '/name', value: 'x' }])!, /operation 1 \(test \/name\) compares the value stored at \/name/);
  assert.match(storedReadOf([{ op: 'replace', path: '/a', value: 1 }, { op: 'copy', from: '/secret', path: '/a' }])!, /operation 2 .* reads the value stored at \/secret/);
  assert.match(storedReadOf([{ op: 'move', from: '/secret', path: '/a' }])!, /reads the value stored at \/secret/);
  assert.match(storedReadOf([{ op: 'add', path: '/tags/-', value: 1 }])!, /goes below the member \/tags/);
  assert.match(storedReadOf([{ op: 'remove', path: '/meta/a' }])!, /goes below the member \/meta/);
});

test('whole-member add, replace and remove read nothing stored; neither does a merge patch', () => {
  assert.equal(storedReadOf([{ op: 'add', path: '/name', value: 'x' }, { op: 'replace', path: '/number', value: '1' }, { op: 'remove', path: '/number' }]), undefined);
  assert.equal(storedReadOf([{ op: 'replace', path: '', value: {} }]), undefined);
  assert.equal(storedReadOf({ name: 'x' }), undefined);
});
