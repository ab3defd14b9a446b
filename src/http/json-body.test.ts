import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DomainError, ValidationError } from '../core/errors.js';
import { parseJsonBody } from './json-body.js';

const JSON_TYPE = 'application/json';
const parse = (body: string | Buffer, type = JSON_TYPE, depth = 64) => parseJsonBody(type, Buffer.isBuffer(body) ? body : Buffer.from(body), depth);
const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return err instanceof DomainError ? err.code : String(err);
  }
  return 'parsed';
};

test('UTF-8 JSON parses, with or without a UTF-8 charset and a BOM', () => {
  assert.deepEqual(parse('{"name":"Zoë 😀"}'), { name: 'Zoë 😀' });
  assert.deepEqual(parse('{"a":1}', 'application/json; charset=UTF-8'), { a: 1 });
  assert.deepEqual(parse('{"a":1}', 'application/json;charset="utf-8"'), { a: 1 });
  assert.deepEqual(parse(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('[1]')])), [1]);
});

test('invalid UTF-8 is malformed-json, never replaced by U+FFFD', () => {
  for (const bytes of [[0xff], [0xc3], [0xed, 0xa0, 0x80], [0xc0, 0xaf]]) {
    assert.equal(code(() => parse(Buffer.concat([Buffer.from('{"name":"'), Buffer.from(bytes), Buffer.from('"}')]))), 'malformed-json', String(bytes));
  }
});

test('lone surrogate escapes and repeated member names are malformed-json naming the place (I-JSON)', () => {
  const detail = (body: string) => {
    try {
      parse(body);
    } catch (err) {
      assert.ok(err instanceof DomainError && err.code === 'malformed-json', String(err));
      return err.message;
    }
    assert.fail(`${body} parsed`);
  };
  assert.match(detail('{"name":"\\ud800"}'), /the value at \/name holds an unpaired UTF-16 surrogate/);
  assert.match(detail('{"tags":{"\\udfff":1}}'), /the value at \/tags\/\\uDFFF holds an unpaired/);
  assert.match(detail('{"name":"a","name":"b"}'), /the member at \/name repeats a member name of its object/);
  assert.match(detail('[{"op":"add","path":"/a","path":"/b","value":1}]'), /the member at \/0\/path repeats/);
  assert.deepEqual(parse('{"name":"\\ud83d\\ude00","a":{"name":1}}'), { name: '😀', a: { name: 1 } });
});

test('a declared charset other than UTF-8 is unsupported-media-type', () => {
  assert.equal(code(() => parse('{"a":1}', 'application/json; charset=iso-8859-1')), 'unsupported-media-type');
  assert.equal(code(() => parse('{"a":1}', 'application/merge-patch+json; charset=UTF-16')), 'unsupported-media-type');
});

test('syntax errors, empty bodies and prototype poisoning are malformed-json', () => {
  assert.equal(code(() => parse('{"a":')), 'malformed-json');
  assert.equal(code(() => parse('')), 'malformed-json');
  assert.equal(code(() => parse('{"__proto__":{"x":1}}')), 'malformed-json');
  assert.equal(code(() => parse('{"a":{"constructor":{"prototype":{"x":1}}}}')), 'malformed-json');
});

test('numbers beyond a double and nesting past the limit are 422 with the pointer', () => {
  assert.throws(() => parse('{"a":[1,1e400]}'), (err) => err instanceof ValidationError && (err.extra.errors as any)[0].pointer === '/a/1');
  assert.throws(() => parse('{"a":-1e400}'), ValidationError);
  assert.throws(() => parse(`{"a":${'['.repeat(10_000)}${']'.repeat(10_000)}}`), (err) => err instanceof ValidationError && /64 levels/.test(err.message));
  assert.deepEqual(parse('[[1]]', JSON_TYPE, 2), [[1]]);
  assert.throws(() => parse('[[[1]]]', JSON_TYPE, 2), ValidationError);
});
