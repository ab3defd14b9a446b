import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isoFormatter } from './iso-time.js';

describe('isoFormatter', () => {
  it('formats as Date#toISOString does, for a repeated time and after the time moves on', () => {
    const iso = isoFormatter();
    const t = Date.UTC(2026, 10, 25, 8, 43, 10, 123);
    assert.equal(iso(t), '2026-11-25T08:43:10.123Z');
    assert.equal(iso(t), '2026-11-25T08:43:10.123Z');
    assert.equal(iso(t + 1), '2026-11-25T08:43:10.124Z');
    assert.equal(iso(0), '1970-01-01T00:00:00.000Z');
  });
});
