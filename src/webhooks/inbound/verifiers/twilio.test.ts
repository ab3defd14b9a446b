import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import twilio from 'twilio';
import { signTwilio, verifyTwilio } from './twilio.js';

const vectors = JSON.parse(readFileSync(new URL('../../../../test/fixtures/webhook-signatures.json', import.meta.url), 'utf8'));
const v = vectors.twilio;
const form = 'application/x-www-form-urlencoded';
const json = 'application/json';

function input(url: string, body: string, signature: string | undefined, contentType = form) {
  const headers: Record<string, string> = { 'content-type': contentType };
  if (signature !== undefined) headers['x-twilio-signature'] = signature;
  return { rawBody: Buffer.from(body), headers, url };
}
const formBody = (params: Record<string, string>) => new URLSearchParams(params).toString();

describe('Twilio verifier', () => {
  it('accepts the published form vector, with and without the port', () => {
    const body = formBody(v.params);
    const config = { authToken: v.auth_token };
    assert.equal(verifyTwilio(input(v.url, body, v.signature), config).ok, true);
    assert.equal(verifyTwilio(input(v.url.replace('.com/', '.com:443/'), body, v.signature), config).ok, true);
  });

  it('accepts a signature Twilio made over the URL with its port', () => {
    const url = 'https://example.com/webhooks/sms';
    const params = { From: '+15550001111', To: '+15559998888', Body: 'who is homer?', MessageSid: 'SM1' };
    const sig = twilio.getExpectedTwilioSignature('tok', 'https://example.com:443/webhooks/sms', params);
    assert.equal(verifyTwilio(input(url, formBody(params), sig), { authToken: 'tok' }).ok, true);
  });

  it('accepts the published JSON vector (bodySHA256 in the URL)', () => {
    assert.equal(createHash('sha256').update(v.json_body).digest('hex'), v.json_body_sha256);
    const url = `${v.url}&bodySHA256=${v.json_body_sha256}`;
    const sig = twilio.getExpectedTwilioSignature(v.auth_token, url, {});
    assert.equal(verifyTwilio(input(url, v.json_body, sig, json), { authToken: v.auth_token }).ok, true);
    assert.equal(twilio.validateRequestWithBody(v.auth_token, sig, url, v.json_body), true);
  });

  it('signs requests the twilio library validates (form and JSON)', () => {
    const params = { From: '+1555', Body: 'Homer', MessageSid: 'SM2', MediaUrl0: 'https://x/y' };
    const f = signTwilio({ authToken: 'tok', url: 'https://h.example/webhooks/sms?x=1', params });
    assert.equal(twilio.validateRequest('tok', f.signature, f.url, params), true);
    const body = '{"hello":"world"}';
    const j = signTwilio({ authToken: 'tok', url: 'https://h.example/webhooks/sms', jsonBody: body });
    assert.match(j.url, /\?bodySHA256=[0-9a-f]{64}$/);
    assert.equal(twilio.validateRequestWithBody('tok', j.signature, j.url, body), true);
    assert.equal(verifyTwilio(input(j.url, body, j.signature, json), { authToken: 'tok' }).ok, true);
  });

  it('uses publicUrl behind a proxy, keeping the request query', () => {
    const params = { Body: 'hi', From: '+1' };
    const signed = signTwilio({ authToken: 'tok', url: 'https://public.example/hooks/sms?src=1', params });
    const internal = 'http://10.0.0.5:8080/webhooks/sms?src=1';
    assert.equal(verifyTwilio(input(internal, formBody(params), signed.signature), { authToken: 'tok' }).ok, false);
    const r = verifyTwilio(input(internal, formBody(params), signed.signature), { authToken: 'tok', publicUrl: 'https://public.example/hooks/sms' });
    assert.equal(r.ok, true);
  });

  it('handles repeated parameters like Twilio does', () => {
    const body = 'Tag=b&Tag=a&Tag=a&Body=x';
    const sig = twilio.getExpectedTwilioSignature('tok', 'https://h/x', { Tag: ['b', 'a', 'a'], Body: 'x' });
    assert.equal(verifyTwilio(input('https://h/x', body, sig), { authToken: 'tok' }).ok, true);
  });

  it('rejects tampered params, a tampered JSON body, the wrong token and a missing header', () => {
    const body = formBody(v.params);
    const tampered = verifyTwilio(input(v.url, body.replace('1234', '9999'), v.signature), { authToken: v.auth_token });
    const wrong = verifyTwilio(input(v.url, body, v.signature), { authToken: '54321' });
    const missing = verifyTwilio(input(v.url, body, undefined), { authToken: v.auth_token });
    const url = `${v.url}&bodySHA256=${v.json_body_sha256}`;
    const sig = twilio.getExpectedTwilioSignature(v.auth_token, url, {});
    const jsonTampered = verifyTwilio(input(url, '{"property": "other"}', sig, json), { authToken: v.auth_token });
    assert.equal(!tampered.ok && tampered.code, 'bad_signature');
    assert.equal(!wrong.ok && wrong.code, 'bad_signature');
    assert.equal(!missing.ok && missing.code, 'missing_signature');
    assert.equal(!jsonTampered.ok && jsonTampered.code, 'bad_signature');
  });

  it('rejects a JSON body without bodySHA256 as malformed', () => {
    const r = verifyTwilio(input('https://h/x', '{"a":1}', 'sig', json), { authToken: 'tok' });
    assert.equal(!r.ok && r.code, 'malformed');
  });
});
