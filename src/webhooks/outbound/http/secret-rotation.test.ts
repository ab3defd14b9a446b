import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ValidationError } from '../../../core/errors.js';
import { AesSecretBox } from '../secret-box.js';
import { generateEndpointSecret } from '../secrets.js';
import { MAX_PREVIOUS_SECRETS, parseRotation, rotatedSecrets } from './secret-rotation.js';

const box = new AesSecretBox('a test key that is long enough to be a key');
const HOUR = 3600_000;

test('a rotation puts the new secret first and ends the previous one after the overlap, keeping an earlier end', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  const current = { secret: generateEndpointSecret(), createdAt: '2025-12-01T00:00:00.000Z' };
  const leaving = { secret: generateEndpointSecret(), createdAt: '2025-11-01T00:00:00.000Z', expiresAt: '2026-01-01T00:30:00.000Z' };
  const next = rotatedSecrets(box, box.seal([current, leaving]), { secret: generateEndpointSecret(), overlapMs: 24 * HOUR }, now);
  assert.equal(next.length, 3);
  assert.equal(next[0]!.expiresAt, undefined);
  assert.equal(next[0]!.createdAt, new Date(now).toISOString());
  assert.equal(next[1]!.expiresAt, '2026-01-02T00:00:00.000Z');
  assert.equal(next[2]!.expiresAt, '2026-01-01T00:30:00.000Z', 'an earlier end is not pushed back');
});

test('expired and excess previous secrets are dropped; unopenable sealed text leaves only the new one', () => {
  const now = Date.now();
  const many = Array.from({ length: 8 }, (_, i) => ({ secret: generateEndpointSecret(), createdAt: new Date(now - (i + 1) * HOUR).toISOString() }));
  const expired = { secret: generateEndpointSecret(), createdAt: new Date(now - 99 * HOUR).toISOString(), expiresAt: new Date(now - 1).toISOString() };
  const next = rotatedSecrets(box, box.seal([...many, expired]), { secret: generateEndpointSecret(), overlapMs: HOUR }, now);
  assert.equal(next.length, 1 + MAX_PREVIOUS_SECRETS);
  assert.deepEqual(next.slice(1).map((s) => s.secret), many.slice(0, MAX_PREVIOUS_SECRETS).map((s) => s.secret), 'the newest previous ones stay');
  assert.equal(rotatedSecrets(box, box.seal(many), { secret: generateEndpointSecret(), overlapMs: 0 }, now).length, 1, 'overlap 0 retires them at once');
  const other = new AesSecretBox('another key, sealing what this server cannot open');
  assert.equal(rotatedSecrets(box, other.seal(many), { secret: generateEndpointSecret(), overlapMs: HOUR }, now).length, 1);
});

test('a rotation body: nothing generates a secret with the default overlap; bad members are named', () => {
  const plain = parseRotation(undefined, 5 * HOUR);
  assert.match(plain.secret, /^whsec_/);
  assert.equal(plain.overlapMs, 5 * HOUR);
  assert.equal(parseRotation({ overlap: '90m' }, 0).overlapMs, 90 * 60_000);
  for (const body of [[], 'x', { overlap: '31d' }, { overlap: 5 }, { overlap: '1e3s' }, { secret: 'whsec_' }, { extra: true }]) {
    assert.throws(() => parseRotation(body, HOUR), ValidationError, JSON.stringify(body));
  }
});
