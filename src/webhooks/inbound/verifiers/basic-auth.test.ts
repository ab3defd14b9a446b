import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { signBasicAuth, verifyBasicAuth } from './basic-auth.js';

const config = { username: 'postmark', password: 's3cr:et' };
const input = (authorization?: string) => ({
  rawBody: Buffer.from('{}'),
  headers: authorization === undefined ? {} : { authorization },
  url: 'https://x/webhooks/mail',
});

describe('HTTP Basic verifier', () => {
  it('accepts the right credentials (password may contain ":")', () => {
    assert.equal(signBasicAuth('postmark', 's3cr:et'), `Basic ${Buffer.from('postmark:s3cr:et').toString('base64')}`);
    assert.deepEqual(verifyBasicAuth(input(signBasicAuth('postmark', 's3cr:et')), config), { ok: true });
    assert.equal(verifyBasicAuth(input(signBasicAuth('postmark', 's3cr:et').replace('Basic', 'basic')), config).ok, true);
  });

  it('rejects a wrong user or password as bad_credentials', () => {
    for (const [u, p] of [['postmark', 'nope'], ['other', 's3cr:et'], ['', ''], ['postmark', 's3cr:et ']]) {
      const r = verifyBasicAuth(input(signBasicAuth(u!, p!)), config);
      assert.equal(!r.ok && r.code, 'bad_credentials', `${u}:${p}`);
      assert.ok(!r.ok && !r.reason.includes('s3cr'));
    }
  });

  it('rejects a missing or non-Basic header', () => {
    const missing = verifyBasicAuth(input(), config);
    const bearer = verifyBasicAuth(input('Bearer abc'), config);
    const noColon = verifyBasicAuth(input(`Basic ${Buffer.from('justuser').toString('base64')}`), config);
    assert.equal(!missing.ok && missing.code, 'missing_signature');
    assert.equal(!bearer.ok && bearer.code, 'malformed');
    assert.equal(!noColon.ok && noColon.code, 'malformed');
  });

  it('throws a config error without both keys', () => {
    assert.throws(() => verifyBasicAuth(input(), { username: 'u' }), /verify\.password/);
  });
});
