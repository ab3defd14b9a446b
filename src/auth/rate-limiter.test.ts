import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RateLimiter, rateLimitHeaders } from './rate-limiter.js';
import { TokenCache } from './token-cache.js';
import { narrowScopes, parseScopes } from './scopes.js';

const policy = { name: 'default', limit: 2, windowSeconds: 60 };

test('fixed window: the limit+1st request in a window is refused; a new window starts afresh', () => {
  const rl = new RateLimiter();
  const t0 = 1_000_000;
  assert.equal(rl.hit(policy, 'a', t0).allowed, true);
  assert.equal(rl.hit(policy, 'a', t0 + 1).remaining, 0);
  const third = rl.hit(policy, 'a', t0 + 2000);
  assert.equal(third.allowed, false);
  assert.equal(third.resetSeconds, 58);
  assert.deepEqual(rateLimitHeaders(third), { 'ratelimit-policy': '"default";q=2;w=60', ratelimit: '"default";r=0;t=58' });
  assert.equal(rl.hit(policy, 'b', t0 + 2000).allowed, true, 'keys are counted apart');
  assert.equal(rl.hit(policy, 'a', t0 + 60_000).allowed, true);
});

test('the limiter stays bounded: finished windows are swept, then the oldest live ones dropped', () => {
  const rl = new RateLimiter(3);
  for (let i = 0; i < 10; i++) rl.hit(policy, `k${i}`, 1000 + i);
  assert.ok((rl as unknown as { windows: Map<string, unknown> }).windows.size <= 3);
});

test('token cache: bounded, never past the credential expiry, cleared on demand', () => {
  const cache = new TokenCache(10, 2);
  const p = (expiresAt?: number) => ({ subject: 's', scopes: new Set<string>(), via: 'api-key' as const, rateKey: 'k', expiresAt });
  cache.set('a', p(), 0);
  cache.set('b', p(5), 0);
  assert.ok(cache.get('b', 4000));
  assert.equal(cache.get('b', 5000), undefined, 'the token expired at 5 s');
  cache.set('c', p(), 0);
  cache.set('d', p(), 0);
  assert.ok(cache.size <= 2);
  assert.equal(cache.get('a', 1), undefined, 'the oldest entry was dropped');
  cache.clear();
  assert.equal(cache.size, 0);
});

test('scopes: parsed from strings or lists, narrowed to what a client may have', () => {
  assert.deepEqual(parseScopes(' a  b a '), ['a', 'b']);
  assert.deepEqual(narrowScopes(['a', 'x'], ['a', 'b']), ['a']);
  assert.deepEqual(narrowScopes([], ['a', 'b']), ['a', 'b']);
  assert.deepEqual(narrowScopes(['x'], ['*']), ['x']);
});
