import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { verifyHeaderToken } from './header-token.js';

const input = (headers: Record<string, string>) => ({ rawBody: Buffer.from('{}'), headers, url: 'https://x/webhooks/g' });

describe('shared header token verifier', () => {
  it('accepts the secret in the configured header, whatever its case in the config', () => {
    assert.deepEqual(verifyHeaderToken(input({ 'x-hook-token': 'tok' }), { header: 'X-Hook-Token', secret: 'tok' }), { ok: true });
  });

  it('accepts "Bearer <secret>" in Authorization', () => {
    const config = { header: 'authorization', secret: 'tok' };
    assert.equal(verifyHeaderToken(input({ authorization: 'Bearer tok' }), config).ok, true);
    assert.equal(verifyHeaderToken(input({ authorization: 'tok' }), config).ok, true);
  });

  it('rejects a wrong or missing token', () => {
    const config = { header: 'x-hook-token', secret: 'tok' };
    const wrong = verifyHeaderToken(input({ 'x-hook-token': 'tok2' }), config);
    const prefix = verifyHeaderToken(input({ 'x-hook-token': 'to' }), config);
    const missing = verifyHeaderToken(input({}), config);
    assert.equal(!wrong.ok && wrong.code, 'bad_credentials');
    assert.equal(!prefix.ok && prefix.code, 'bad_credentials');
    assert.equal(!missing.ok && missing.code, 'missing_signature');
  });
});
