import assert from 'node:assert/strict';
import { test } from 'node:test';
import fastJsonPatch from 'fast-json-patch';
import { DomainError, RecordTooLargeError } from './errors.js';
import { applyJsonPatch } from './json-patch.js';
import { jsonSize } from './json-size.js';
import { COPY_FACTOR, MAX_PATCH_OPERATIONS, PatchBudget } from './patch-budget.js';

/** Applies `ops` one by one, charging each first; returns the tracked and the real size after each. */
function track(doc: unknown, ops: Array<Record<string, unknown>>, max = Infinity): Array<[number, number]> {
  const budget = new PatchBudget(doc, max);
  let d = structuredClone(doc);
  return ops.map((op, i) => {
    budget.charge(d, op, i);
    d = fastJsonPatch.applyOperation(d, op as any, true, true, true, i).newDocument;
    return [budget.bytes, jsonSize(d)];
  });
}

test('the tracked size is the size of the JSON text after every kind of operation', () => {
  const doc = { a: 'x', list: [1, 2], obj: { k: 'v' }, empty: {}, none: [] };
  const ops = [
    { op: 'add', path: '/b', value: { deep: ['é', '€', '\u0001'] } },
    { op: 'add', path: '/list/1', value: 'inserted' },
    { op: 'add', path: '/list/-', value: null },
    { op: 'add', path: '/empty/first', value: 1 },
    { op: 'add', path: '/none/-', value: 'only' },
    { op: 'add', path: '/a', value: 'replaced by add' },
    { op: 'replace', path: '/obj/k', value: 'longer value' },
    { op: 'remove', path: '/list/0' },
    { op: 'remove', path: '/empty/first' },
    { op: 'copy', from: '/b', path: '/c' },
    { op: 'copy', from: '/obj', path: '/list/0' },
    { op: 'move', from: '/c', path: '/d' },
    { op: 'move', from: '/d', path: '/obj' },
    { op: 'test', path: '/a', value: 'replaced by add' },
    { op: 'copy', from: '', path: '/whole' },
    { op: 'replace', path: '', value: { small: true } },
  ];
  for (const [i, [tracked, real]] of track(doc, ops).entries()) assert.equal(tracked, real, `after operation ${i + 1} (${ops[i]!.op} ${ops[i]!.path})`);
});

test('a move out of an object it empties is within a byte (a comma) of the real size', () => {
  for (const [tracked, real] of track({ one: { a: 1 }, two: {} }, [{ op: 'move', from: '/one/a', path: '/two/a' }])) assert.ok(Math.abs(tracked - real) <= 1);
});

test('the doubling copy patch stops at the operation that crosses the limit, before it builds anything', () => {
  const doc = { extra: { text: 'x'.repeat(1000) } };
  const patch = Array.from({ length: 60 }, (_, i) => ({ op: 'copy', from: '/extra', path: `/extra/d${i}` }));
  assert.throws(() => applyJsonPatch(doc, patch, 64 * 1024), (err: unknown) => {
    assert.ok(err instanceof RecordTooLargeError);
    assert.equal(err.code, 'record-too-large');
    assert.equal(err.extra.operation, 6, '1 KB doubled 6 times is 64 KB: the seventh copy would cross');
    assert.match(err.message, /^operation 7 \(copy \/extra\/d6\) would make the record about 127\.1 KB \(130180 bytes\)/);
    return true;
  });
  assert.deepEqual(doc, { extra: { text: 'x'.repeat(1000) } }, 'the target is untouched');
  assert.ok(jsonSize(applyJsonPatch(doc, patch.slice(0, 6), 64 * 1024)) <= 64 * 1024);
});

test('a patch may shrink a document that is already over the limit, and may not grow it', () => {
  const doc = { big: 'b'.repeat(500), small: 's' };
  assert.deepEqual(applyJsonPatch(doc, [{ op: 'replace', path: '/big', value: 'b' }], 100), { big: 'b', small: 's' });
  assert.throws(() => applyJsonPatch(doc, [{ op: 'add', path: '/more', value: 1 }], 100), RecordTooLargeError);
});

test('copies are bounded in all, even when each is removed again', () => {
  const doc = { v: 'c'.repeat(100) };
  const churn = Array.from({ length: 20 }, () => [{ op: 'copy', from: '/v', path: '/w' }, { op: 'remove', path: '/w' }]).flat();
  assert.throws(() => applyJsonPatch(doc, churn, 300), (err: unknown) => err instanceof DomainError && err.code === 'patch-too-large' && /copy operations would copy/.test(err.message));
  assert.deepEqual(applyJsonPatch(doc, churn.slice(0, 2 * COPY_FACTOR * 2), 300), doc);
});

test(`more than ${MAX_PATCH_OPERATIONS} operations is refused before any applies`, () => {
  const ops = Array.from({ length: MAX_PATCH_OPERATIONS + 1 }, () => ({ op: 'test', path: '/a', value: 1 }));
  assert.throws(() => applyJsonPatch({ a: 1 }, ops), (err: unknown) => err instanceof DomainError && err.code === 'patch-too-large');
  assert.deepEqual(applyJsonPatch({ a: 1 }, ops.slice(1)), { a: 1 });
});

test('a copy or move from a path that is not there is a conflict naming the operation', () => {
  assert.throws(() => applyJsonPatch({ a: 1 }, [{ op: 'test', path: '/a', value: 1 }, { op: 'copy', from: '/nope', path: '/b' }]), (err: unknown) => {
    assert.ok(err instanceof DomainError);
    assert.equal(err.code, 'patch-conflict');
    assert.match(err.message, /^operation 2 \(copy \/b\)/);
    return true;
  });
});
