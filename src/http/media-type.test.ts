import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseMediaType } from './media-type.js';

test('the type is trimmed and lower-cased; parameters are by lower-cased name', () => {
  const { type, params } = parseMediaType(' Application/JSON ; Charset=UTF-8');
  assert.equal(type, 'application/json');
  assert.deepEqual({ ...params }, { charset: 'UTF-8' });
  assert.equal(parseMediaType(undefined).type, '');
  assert.deepEqual(Object.keys(parseMediaType('text/plain').params), []);
});

test('quoted strings are unquoted, with their escapes, and may hold ; and =', () => {
  const { params } = parseMediaType('multipart/form-data; boundary="a;b=\\"c\\""; charset=utf-8');
  assert.equal(params.boundary, 'a;b="c"');
  assert.equal(params.charset, 'utf-8');
});

test('RFC 8187 extended values are decoded and win over the plain form', () => {
  const { type, params } = parseMediaType(`form-data; name="file"; filename="plain.txt"; filename*=UTF-8''%E2%82%AC%20rates.txt`);
  assert.equal(type, 'form-data');
  assert.equal(params.filename, '€ rates.txt');
  assert.equal(parseMediaType(`attachment; filename*=iso-8859-1'en'%A3.txt`).params.filename, '£.txt');
  assert.equal(parseMediaType(`attachment; filename*=UTF-8''%FF; filename=x`).params.filename, 'x', 'a broken ext-value falls back to the plain one');
});

test('no parameter can reach the prototype, and the first of a repeated one wins', () => {
  const { params } = parseMediaType('text/plain; __proto__=x; q=0.5; q=1');
  assert.equal(Object.getPrototypeOf(params), null);
  assert.equal(params.q, '0.5');
});
