import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeForm } from '../payload/form-body.js';
import { signVonage, verifyVonageSignature, vonageSignature } from './vonage-signature.js';

const now = 1_461_605_396_000;
const sms = { msisdn: '447700900001', to: '447700900000', messageId: '0A0000000123ABCD1', text: 'Who is Homer?', type: 'text', 'message-timestamp': '2016-04-25 17:29:56' };

const input = (body: Buffer, contentType: string, url = 'https://x/webhooks/sms', at = now) => ({
  rawBody: body,
  headers: contentType ? { 'content-type': contentType } : {},
  url,
  now: at,
});

describe('Vonage signed-SMS verifier', () => {
  it('matches the Vonage SDK test vector (md5hash)', () => {
    // vonage-python-sdk tests: params a=1, b=2, timestamp=1461605396 with secret "secret".
    assert.equal(vonageSignature({ a: '1', b: '2', timestamp: '1461605396' }, 'secret', 'md5hash'), '6af838ef94998832dbfc29020b564830');
    const r = verifyVonageSignature(
      input(Buffer.from('a=1&b=2&timestamp=1461605396&sig=6af838ef94998832dbfc29020b564830'), 'application/x-www-form-urlencoded'),
      { secret: 'secret', algorithm: 'md5hash' },
    );
    assert.deepEqual(r, { ok: true, timestamp: now });
  });

  it('accepts JSON, form and query-string deliveries signed with HMAC-SHA256', () => {
    const signed = signVonage({ ...sms, timestamp: String(now / 1000) }, 'sigsecret');
    assert.match(signed.sig!, /^[0-9A-F]{64}$/);
    const config = { secret: 'sigsecret' };
    assert.equal(verifyVonageSignature(input(Buffer.from(JSON.stringify(signed)), 'application/json'), config).ok, true);
    const form = encodeForm(signed);
    assert.equal(verifyVonageSignature(input(form.body, form.contentType), config).ok, true);
    const url = `https://x/webhooks/sms?${new URLSearchParams(signed)}`;
    assert.equal(verifyVonageSignature(input(Buffer.alloc(0), '', url), config).ok, true);
  });

  it('treats & and = in values as _ like Vonage', () => {
    assert.equal(
      vonageSignature({ text: 'a&b=c', timestamp: '1' }, 's', 'sha1'),
      vonageSignature({ text: 'a_b_c', timestamp: '1' }, 's', 'sha1'),
    );
  });

  it('rejects tampered text, the wrong secret, stale timestamps and a missing sig', () => {
    const signed = signVonage({ ...sms, timestamp: String(now / 1000) }, 'sigsecret');
    const json = (o: object) => Buffer.from(JSON.stringify(o));
    const tampered = verifyVonageSignature(input(json({ ...signed, text: 'Who is Bart?' }), 'application/json'), { secret: 'sigsecret' });
    const wrong = verifyVonageSignature(input(json(signed), 'application/json'), { secret: 'other' });
    const stale = verifyVonageSignature(input(json(signed), 'application/json', undefined, now + 600_000), { secret: 'sigsecret' });
    const { sig: _sig, ...unsigned } = signed;
    const missing = verifyVonageSignature(input(json(unsigned), 'application/json'), { secret: 'sigsecret' });
    assert.equal(!tampered.ok && tampered.code, 'bad_signature');
    assert.equal(!wrong.ok && wrong.code, 'bad_signature');
    assert.equal(!stale.ok && stale.code, 'stale_timestamp');
    assert.equal(!missing.ok && missing.code, 'missing_signature');
  });
});
