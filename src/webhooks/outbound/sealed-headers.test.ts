import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FieldError } from '../../core/errors.js';
import { AesSecretBox } from './secret-box.js';
import { openHeaders, sealHeaders, viewHeaders } from './sealed-headers.js';

const box = new AesSecretBox('a key of thirty-two characters or more!');

test('credential values are sealed, others kept; reads show [redacted]; deliveries get the value', () => {
  const stored = sealHeaders(box, { authorization: 'Bearer t', 'x-trace': 'on', 'x-b': 'Basic dTpw' });
  assert.equal(stored['x-trace'], 'on');
  assert.match(stored.authorization!, /^rw-sealed:v1\./);
  assert.match(stored['x-b']!, /^rw-sealed:/, 'a Basic value is a credential whatever the name');
  assert.deepEqual(viewHeaders(stored), { authorization: '[redacted]', 'x-trace': 'on', 'x-b': '[redacted]' });
  assert.deepEqual(openHeaders(box, stored), { authorization: 'Bearer t', 'x-trace': 'on', 'x-b': 'Basic dTpw' });
});

test('[redacted] and the same value again keep the stored seal (case-insensitively); a new value is sealed anew', () => {
  const stored = sealHeaders(box, { Authorization: 'Bearer t' });
  assert.deepEqual(sealHeaders(box, { authorization: '[redacted]' }, stored), { authorization: stored.Authorization });
  assert.deepEqual(sealHeaders(box, { Authorization: 'Bearer t' }, stored), stored);
  const changed = sealHeaders(box, { Authorization: 'Bearer u' }, stored);
  assert.notEqual(changed.Authorization, stored.Authorization);
  assert.equal(openHeaders(box, changed).Authorization, 'Bearer u');
});

test('[redacted] with nothing stored, and a value posing as sealed, are errors', () => {
  const errors: FieldError[] = [];
  sealHeaders(box, { authorization: '[redacted]', 'x-a': 'rw-sealed:v1.a.b' }, {}, errors);
  assert.deepEqual(errors.map((e) => e.pointer), ['/headers/authorization', '/headers/x-a']);
  assert.throws(() => openHeaders(new AesSecretBox('another key of thirty-two characters!!'), sealHeaders(box, { authorization: 'Bearer t' })));
});
