import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Principal } from './principal.js';
import { TokenCache } from './token-cache.js';

const principal = (subject: string): Principal => ({ subject, scopes: new Set(['*']), via: 'access-token', rateKey: `client:${subject}` });

test('a long key is served only for exactly itself, even to a key that ends the same; such keys take each other\'s place', () => {
  const cache = new TokenCache(60);
  const end = 'x'.repeat(100);
  const a = `https://a.example Bearer eyJ.aaa.${end}`;
  const b = `https://b.example Bearer eyJ.bbb.${end}`;
  cache.set(a, principal('a'), 0);
  assert.equal(cache.get(a, 1)?.subject, 'a');
  assert.equal(cache.get(b, 1), undefined, 'another issuer and token with the same end');
  assert.equal(cache.get(a.slice(1), 1), undefined);
  cache.set(b, principal('b'), 0);
  assert.equal(cache.get(b, 1)?.subject, 'b');
  assert.equal(cache.get(a, 1), undefined, 'b took its place');
  assert.equal(cache.size, 1);
  // Short keys are held whole.
  cache.set('k1', principal('k1'), 0);
  assert.equal(cache.get('k1', 1)?.subject, 'k1');
  assert.equal(cache.get('k2', 1), undefined);
});
