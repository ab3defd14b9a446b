import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { findProvider, PROVIDERS } from '../providers/registry.js';
import {
  checkVerifyConfig,
  schemeFor,
  schemes,
  signBasicAuth,
  signStandardWebhooks,
  verify,
  VerifyConfigError,
  type VerifyConfig,
} from './index.js';

const provider = (name: string) => findProvider(name) ?? assert.fail(`no provider ${name}`);

const secret = 'whsec_' + Buffer.from('0123456789abcdef0123456789abcdef').toString('base64');

describe('verifier registry', () => {
  it('has a verifier for every scheme of every provider', () => {
    for (const p of PROVIDERS) for (const s of p.schemes) assert.equal(typeof schemes[s], 'function', `${p.name} ${s}`);
  });

  it('chooses the scheme from the keys present', () => {
    assert.equal(schemeFor(provider('postmark'), { username: 'u', password: 'p' }), 'basic');
    assert.equal(schemeFor(provider('sendgrid'), { header: 'x-token', secret: 's' }), 'header');
    assert.equal(schemeFor(provider('vonage'), { secret: 's' }), 'vonage-signature');
    assert.equal(schemeFor(provider('vonage'), { header: 'x-token', secret: 's' }), 'header');
    assert.equal(schemeFor(provider('vonage'), { username: 'u', password: 'p' }), 'basic');
    assert.equal(schemeFor(provider('twilio'), { authToken: 't' }), 'twilio');
    assert.equal(schemeFor(provider('generic'), 'none'), 'none');
    assert.equal(schemeFor(provider('github'), { secret: 's' }), 'github');
    assert.throws(() => schemeFor(provider('generic'), { secret: 's' }), (e: Error) => e instanceof VerifyConfigError && /verify\.header \+ verify\.secret/.test(e.message));
    assert.throws(() => schemeFor(provider('postmark'), {}), VerifyConfigError);
  });

  it('verifies through the registry', () => {
    const body = '{"x":1}';
    const headers = signStandardWebhooks({ secret, id: 'msg_9', body, timestamp: 1_700_000_000 });
    const r = verify('standard-webhooks', { rawBody: Buffer.from(body), headers, url: 'https://x/', now: 1_700_000_000_000 }, { secret });
    assert.deepEqual(r, { ok: true, eventId: 'msg_9', timestamp: 1_700_000_000_000 });
    const auth = { authorization: signBasicAuth('u', 'p') };
    assert.equal(verify(schemeFor(provider('postmark'), { username: 'u', password: 'p' }), { rawBody: Buffer.from(body), headers: auth, url: 'https://x/' }, { username: 'u', password: 'p' }).ok, true);
    assert.equal(verify(schemeFor(provider('postmark'), 'none'), { rawBody: Buffer.from(body), headers: {}, url: 'https://x/' }, 'none').ok, true);
  });

  it('reports config problems naming the key', () => {
    assert.deepEqual(checkVerifyConfig(provider('github'), { secret: 's' }), []);
    assert.deepEqual(checkVerifyConfig(provider('postmark'), 'none'), []);
    assert.match(checkVerifyConfig(provider('github'), undefined)[0]!, /verify: none/);
    assert.match(checkVerifyConfig(provider('github'), 'off')[0]!, /"off"/);
    assert.match(checkVerifyConfig(provider('stripe'), {})[0]!, /verify\.secret/);
    assert.match(checkVerifyConfig(provider('twilio'), { authToken: 't', publicUrl: 'example.com' })[0]!, /verify\.publicUrl/);
    assert.match(checkVerifyConfig(provider('github'), { secret: 's', tolerance: -1 })[0]!, /verify\.tolerance/);
    assert.match(checkVerifyConfig(provider('vonage'), { secret: 's', algorithm: 'crc32' })[0]!, /verify\.algorithm/);
    assert.match(checkVerifyConfig(provider('standard-webhooks'), { secret: 'whsec_' })[0]!, /whsec_/);
  });

  it('rejects garbage from every provider without throwing', () => {
    const configs = {
      postmark: { username: 'u', password: 'p' }, sendgrid: { header: 'x-token', secret: 's' }, mailgun: { secret: 'k' },
      cloudmailin: { username: 'u', password: 'p' }, twilio: { authToken: 't' }, vonage: { secret: 's' },
      'standard-webhooks': { secret }, github: { secret: 's' }, stripe: { secret: 'whsec_x' }, generic: { header: 'x-token', secret: 's' },
    } as Record<string, VerifyConfig>;
    const headerSets = [
      {},
      { 'content-type': 'application/json' },
      { 'content-type': 'multipart/form-data; boundary=b', authorization: 'Basic !!!' },
      { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': ['a', 'b'], 'stripe-signature': 't=,v1=' },
      { 'webhook-id': 'x', 'webhook-timestamp': '99999999999999999999', 'webhook-signature': 'v1,' , 'x-hub-signature-256': 'sha256=zz', 'x-token': '' },
    ];
    const bodies = [Buffer.alloc(0), randomBytes(40), Buffer.from('{"signature":{"timestamp":1,"token":"t","signature":"s"}}'), Buffer.from('sig=1&timestamp=x')];
    for (const p of PROVIDERS) {
      const config = configs[p.name]!;
      for (const headers of headerSets) {
        for (const rawBody of bodies) {
          const r = verify(schemeFor(p, config), { rawBody, headers, url: 'not a url', now: Date.now() }, config);
          assert.equal(r.ok, false, `${p.name} accepted garbage`);
          assert.ok(!r.ok && r.reason.length > 0 && r.code.length > 0);
        }
      }
    }
  });
});
