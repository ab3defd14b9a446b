import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, test } from 'node:test';
import { BadRequestError, ConflictError } from './errors.js';
import { applyJsonPatch } from './json-patch.js';

const require = createRequire(import.meta.url);
interface Vector {
  comment?: string;
  doc: unknown;
  patch: unknown[];
  expected?: unknown;
  error?: string;
  disabled?: boolean;
}
const suites: Record<string, Vector[]> = {
  'spec_tests.json (RFC 6902 examples)': require('json-patch-test-suite/spec_tests.json'),
  'tests.json': require('json-patch-test-suite/tests.json'),
};

for (const [name, vectors] of Object.entries(suites)) {
  describe(`json-patch-test-suite ${name}`, () => {
    for (const [i, v] of vectors.entries()) {
      if (v.disabled) continue;
      const title = `${i}: ${v.comment ?? JSON.stringify(v.patch).slice(0, 60)}`;
      if (v.error !== undefined) {
        test(`${title} → error`, () => {
          const before = structuredClone(v.doc);
          assert.throws(() => applyJsonPatch(v.doc, v.patch), (err) => err instanceof BadRequestError || err instanceof ConflictError);
          assert.deepEqual(v.doc, before, 'a failed patch leaves the document untouched');
        });
      } else if ('expected' in v) {
        test(title, () => assert.deepEqual(applyJsonPatch(v.doc, v.patch), v.expected));
      } else {
        test(`${title} (applies)`, () => assert.doesNotThrow(() => applyJsonPatch(v.doc, v.patch)));
      }
    }
  });
}

test('a patch that is not an array is a 400, not a crash', () => {
  assert.throws(() => applyJsonPatch({}, { op: 'add' }), BadRequestError);
});

test('a failed test operation is a conflict (409), and earlier operations are not kept', () => {
  const doc = { a: 1 };
  assert.throws(() => applyJsonPatch(doc, [{ op: 'replace', path: '/a', value: 2 }, { op: 'test', path: '/a', value: 5 }]), ConflictError);
  assert.deepEqual(doc, { a: 1 });
});
