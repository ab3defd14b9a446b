import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeUtf8, JsonTextError, parseStrictJson } from './strict-json.js';

const refusal = (fn: () => unknown): JsonTextError => {
  try {
    fn();
  } catch (err) {
    if (err instanceof JsonTextError) return err;
    throw err;
  }
  assert.fail('not refused');
};

test('decodeUtf8 drops a BOM and names the first bad byte, in the bytes and in the text read with U+FFFD', () => {
  assert.equal(decodeUtf8(Buffer.from([0xef, 0xbb, 0xbf, 0x41])), 'A');
  for (const [bytes, byteOffset, charOffset] of [
    [[0x41, 0xff, 0x42], 1, 1],
    [[0xef, 0xbb, 0xbf, 0x41, 0xc3, 0xa9, 0xed, 0xa0, 0x80], 6, 2], // an encoded surrogate, after a BOM and an é
    [[0xef, 0xbf, 0x41], 0, 0], // a truncated sequence whose first bytes U+FFFD's encoding shares
    [[0x41, 0xe2, 0x82], 1, 1],
    [[0xc0, 0xaf], 0, 0], // an overlong '/'
  ] as const) {
    const err = refusal(() => decodeUtf8(Buffer.from(bytes)));
    assert.equal(err.utf8?.byteOffset, byteOffset, String(bytes));
    assert.equal(err.utf8?.charOffset, charOffset, String(bytes));
    assert.match(err.message, new RegExp(`^is not valid UTF-8 \\(the first bad byte is at offset ${byteOffset}\\)`));
  }
});

test('parseStrictJson refuses syntax errors, repeated names, lone surrogates and the other hazards, saying where', () => {
  assert.deepEqual(parseStrictJson('{"a":["\\ud83d\\ude00",{"b":1}]}'), { a: ['😀', { b: 1 }] });
  assert.match(refusal(() => parseStrictJson('{"a":')).message, /^is not valid JSON: /);
  assert.equal(refusal(() => parseStrictJson('{"a":{"b":1,"b":1}}')).hazard?.pointer, '/a/b');
  assert.match(refusal(() => parseStrictJson('{"a":{"b":1,"b":1}}')).message, /^is refused: the member at \/a\/b repeats a member name of its object/);
  assert.deepEqual(refusal(() => parseStrictJson('[0,{"t":"\\ud800"}]')).hazard, { kind: 'lone-surrogate', pointer: '/1/t' });
  assert.match(refusal(() => parseStrictJson('"\\ud800"')).message, /^is refused: the top-level value holds an unpaired UTF-16 surrogate/);
  assert.equal(refusal(() => parseStrictJson('[[[]]]', 2)).hazard?.kind, 'depth');
  assert.deepEqual(parseStrictJson('[[[]]]'), [[[]]], 'no depth limit unless one is given');
});
