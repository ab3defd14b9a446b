import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PROVIDER_NAMES } from '../providers/provider-name.js';
import {
  checkVerifyConfig,
  schemeFor,
  signBasicAuth,
  signStandardWebhooks,
  verifiers,
  verify,
  VerifyConfigError,
} from './index.js';

const secret = 'whsec_' + Buffer.from('0123456789abcdef0123456789abcdef').toString('base64');

describe('verifier registry', () => {
  it('has a verifier for every provider', () => {
    for (const p of PROVIDER_NAMES) assert.equal(typeof verifiers[p], 'function', p);
  });

  it('chooses the scheme from the keys present', () => {
    assert.equal(schemeFor('postmark', { username: 'u', password: 'p' }), 'basic');
    assert.equal(schemeFor('sendgrid', { header: 'x-token', secret: 's' }), 'header');
    assert.equal(schemeFor('vonage', { secret: 's' }), 'vonage-signature');
    assert.equal(schemeFor('vonage', { header: 'x-token', secret: 's' }), 'header');
    assert.equal(schemeFor('vonage', { username: 'u', password: 'p' }), 'basic');
    assert.equal(schemeFor('twilio', { authToken: 't' }), 'twilio');
    assert.equal(schemeFor('generic', 'none'), 'none');
    assert.equal(schemeFor('github', { secret: 's' }), 'github');
    assert.throws(() => schemeFor('generic', { secret: 's' }), (e: Error) => e instanceof VerifyConfigError && /verify\.header \+ verify\.secret/.test(e.message));
    assert.throws(() => schemeFor('postmark', {}), VerifyConfigError);
  });

  it('verifies through the registry', () => {
    const body = '{"x":1}';
    const headers = signStandardWebhooks({ secret, id: 'msg_9', body, timestamp: 1_700_000_000 });
    const r = verify('standard-webhooks', { rawBody: Buffer.from(body), headers, url: 'https://x/', now: 1_700_000_000_000 }, { secret });
    assert.deepEqual(r, { ok: true, eventId: 'msg_9', timestamp: 1_700_000_000_000 });
    const auth = { authorization: signBasicAuth('u', 'p') };
    assert.equal(verify('postmark', { rawBody: Buffer.from(body), headers: auth, url: 'https://x/' }, { username: 'u', password: 'p' }).ok, true);
    assert.equal(verify('postmark', { rawBody: Buffer.from(body), headers: {}, url: 'https://x/' }, 'none').ok, true);
  });

  it('reports config problems naming the key', () => {
    assert.deepEqual(checkVerifyConfig('github', { secret: 's' }), []);
    assert.deepEqual(checkVerifyConfig('postmark', 'none'), []);
    assert.match(checkVerifyConfig('nope', {})[0]!, /^provider: unknown/);
    assert.match(checkVerifyConfig('github', undefined)[0]!, /verify: none/);
    assert.match(checkVerifyConfig('github', 'off')[0]!, /"off"/);
    assert.match(checkVerifyConfig('stripe', {})[0]!, /verify\.secret/);
    assert.match(checkVerifyConfig('twilio', { authToken: 't', publicUrl: 'example.com' })[0]!, /verify\.publicUrl/);
    assert.match(checkVerifyConfig('github', { secret: 's', tolerance: -1 })[0]!, /verify\.tolerance/);
    assert.match(checkVerifyConfig('vonage', { secret: 's', algorithm: 'crc32' })[0]!, /verify\.algorithm/);
    assert.match(checkVerifyConfig('standard-webhooks', { secret: 'whsec_' })[0]!, /whsec_/);
  });
});
