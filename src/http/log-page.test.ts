import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BadRequestError } from '../core/errors.js';
import { parseLogPage } from './log-page.js';

test('a log filter is bounded, since every page link repeats it', () => {
  assert.equal(parseLogPage({ type: 'characters.created,characters.updated' }, ['type'], 'e').filters.type, 'characters.created,characters.updated');
  assert.equal(parseLogPage({ type: 'x'.repeat(1000) }, ['type'], 'e').filters.type.length, 1000);
  assert.throws(() => parseLogPage({ type: 'x'.repeat(1001) }, ['type'], 'e'), (err: unknown) => err instanceof BadRequestError && /at most 1000 characters/.test(err.message));
  assert.throws(() => parseLogPage({ type: ['a'.repeat(600), 'b'.repeat(600)] }, ['type'], 'e'), BadRequestError, 'a repeated parameter counts joined');
});
