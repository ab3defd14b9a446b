import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parsePrefer } from './prefer.js';

describe('parsePrefer (RFC 7240 §2)', () => {
  it('reads return and handling, alone or together, in one field or several', () => {
    assert.deepEqual(parsePrefer(undefined), {});
    assert.deepEqual(parsePrefer('return=minimal'), { return: 'minimal' });
    assert.deepEqual(parsePrefer('return=representation, handling=lenient'), { return: 'representation', handling: 'lenient' });
    assert.deepEqual(parsePrefer(['handling=strict', 'return=minimal']), { return: 'minimal', handling: 'strict' });
    assert.deepEqual(parsePrefer('respond-async, wait=10,return=minimal'), { return: 'minimal' }, 'unknown preferences are ignored');
  });

  it('compares names case-insensitively and values exactly; a quoted value is its text', () => {
    assert.deepEqual(parsePrefer('RETURN=minimal; Handling=lenient'), { return: 'minimal' }, 'after ";" come parameters of return, not another preference');
    assert.deepEqual(parsePrefer('Return=minimal, HANDLING=lenient'), { return: 'minimal', handling: 'lenient' });
    assert.deepEqual(parsePrefer('return=Minimal'), {}, 'values are case-sensitive');
    assert.deepEqual(parsePrefer('return="minimal"'), { return: 'minimal' });
    assert.deepEqual(parsePrefer('return="mini\\mal"'), { return: 'minimal' }, 'a quoted-pair stands for its character');
    assert.deepEqual(parsePrefer('return = minimal ;  foo="a, b; c" , handling =lenient'), { return: 'minimal', handling: 'lenient' }, 'BWS, OWS, and separators inside quotes');
  });

  it('ignores parameters, empty values and empty elements', () => {
    assert.deepEqual(parsePrefer('return=minimal; include="x y"; flag'), { return: 'minimal' });
    assert.deepEqual(parsePrefer('return='), {}, 'an empty value is no value');
    assert.deepEqual(parsePrefer('return=""'), {});
    assert.deepEqual(parsePrefer(', ,return=minimal,,'), { return: 'minimal' });
    assert.deepEqual(parsePrefer('return'), {});
  });

  it('skips what does not parse and keeps the rest, never throwing', () => {
    assert.deepEqual(parsePrefer('return=minimal, @@@, handling=lenient'), { return: 'minimal', handling: 'lenient' });
    assert.deepEqual(parsePrefer('return=min imal, handling=lenient'), { handling: 'lenient' });
    assert.deepEqual(parsePrefer('handling=lenient, return="minimal'), { handling: 'lenient' }, 'an unterminated quote spoils only its own element');
    assert.deepEqual(parsePrefer('return=minimal; ="x"'), {}, 'a malformed parameter spoils its preference');
    assert.deepEqual(parsePrefer('=minimal'), {});
    for (const junk of ['"', '\\', ';;;', '="', 'a="\\', '\u0000', 'return=minimal\u0000']) assert.doesNotThrow(() => parsePrefer(junk));
  });

  it('counts a repeated preference once; two different values of return or handling count as neither', () => {
    assert.deepEqual(parsePrefer('return=minimal, return=minimal'), { return: 'minimal' });
    assert.deepEqual(parsePrefer('return=minimal, return=representation, handling=lenient'), { handling: 'lenient' });
    assert.deepEqual(parsePrefer(['handling=lenient', 'handling=strict']), {});
    assert.deepEqual(parsePrefer('return=minimal, return=bogus'), { return: 'minimal' }, 'the first counts; an unknown value contradicts nothing');
    assert.deepEqual(parsePrefer('return=bogus, return=minimal'), {}, 'only the first counts, and it is unknown');
  });
});
