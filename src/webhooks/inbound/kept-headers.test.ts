import assert from 'node:assert/strict';
import { test } from 'node:test';
import { keptHeaders } from './kept-headers.js';
import type { Source } from './sources.js';

const source = (verify: Source['verify']) => ({ verify }) as Source;

test('credentials are masked; signatures and ordinary headers are kept', () => {
  const kept = keptHeaders(
    {
      'x-shared': 'tok-123',
      authorization: 'Basic dTpw',
      cookie: 'a=b',
      'x-api-key': 'k',
      'x-auth-token': 't',
      'x-custom': 'Bearer abc',
      'x-echo': 'contains tok-123 inside',
      'webhook-signature': 'v1,abc',
      'x-twilio-signature': 'sig',
      'x-author': 'Marge',
      'user-agent': ['a', 'b'],
      'x-absent': undefined,
    },
    source({ header: 'X-Shared', secret: 'tok-123' }),
  );
  assert.deepEqual(kept, {
    'x-shared': '[redacted]',
    authorization: '[redacted]',
    cookie: '[redacted]',
    'x-api-key': '[redacted]',
    'x-auth-token': '[redacted]',
    'x-custom': '[redacted]',
    'x-echo': '[redacted]',
    'webhook-signature': 'v1,abc',
    'x-twilio-signature': 'sig',
    'x-author': 'Marge',
    'user-agent': 'a, b',
  });
  assert.deepEqual(keptHeaders({ 'x-request-id': '1' }, source('none')), { 'x-request-id': '1' });
});
