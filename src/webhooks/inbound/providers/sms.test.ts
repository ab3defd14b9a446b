import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeForm } from '../payload/form-body.js';
import { normalize } from './normalize.js';
import { sampleTwilioSms, twilio, twiml, xmlEscape } from './twilio.js';
import { sampleVonageSms, vonage } from './vonage.js';

describe('SMS normalizers', () => {
  it('normalizes a Twilio form post', async () => {
    const s = sampleTwilioSms({ from: '+15551234567', to: '+15005550006', text: 'who is homer?', messageId: 'SM123' });
    assert.deepEqual(await normalize(twilio, s.contentType, s.body), {
      kind: 'sms',
      sms: { from: '+15551234567', to: '+15005550006', text: 'who is homer?', messageId: 'SM123' },
    });
  });

  it('treats Twilio JSON that is not a message as an event', async () => {
    const r = await normalize(twilio, 'application/json', Buffer.from('{"type":"com.twilio.x"}'));
    assert.deepEqual(r, { kind: 'event', payload: { type: 'com.twilio.x' } });
  });

  it('normalizes Vonage SMS API JSON and form posts, and Messages API JSON', async () => {
    const s = sampleVonageSms({ from: '447700900001', to: '447700900000', text: 'Homer', messageId: '0A01' });
    const expected = { kind: 'sms', sms: { from: '447700900001', to: '447700900000', text: 'Homer', messageId: '0A01' } };
    assert.deepEqual(await normalize(vonage, s.contentType, s.body), expected);
    const f = encodeForm(s.params);
    assert.deepEqual(await normalize(vonage, f.contentType, f.body), expected);
    const messagesApi = { channel: 'sms', message_uuid: 'uuid-1', from: '447700900001', to: '447700900000', text: 'Homer', message_type: 'text' };
    const r = await normalize(vonage, 'application/json', Buffer.from(JSON.stringify(messagesApi)));
    assert.deepEqual(r, { kind: 'sms', sms: { from: '447700900001', to: '447700900000', text: 'Homer', messageId: 'uuid-1' } });
  });

  it('rejects posts without a sender', async () => {
    const f = encodeForm({ Body: 'hi' });
    await assert.rejects(normalize(twilio, f.contentType, f.body), /From/);
    await assert.rejects(normalize(vonage, 'application/json', Buffer.from('{"text":"x"}')), /msisdn/);
    await assert.rejects(normalize(vonage, 'application/json', Buffer.from('[]')), /JSON object/);
  });

  it('answers Twilio with TwiML, escaping XML', () => {
    assert.equal(xmlEscape(`<a & 'b' "c">\u0001`), '&lt;a &amp; &apos;b&apos; &quot;c&quot;&gt;');
    assert.equal(twiml('Tom & Jerry <3'), '<?xml version="1.0" encoding="UTF-8"?><Response><Message>Tom &amp; Jerry &lt;3</Message></Response>');
    assert.equal(twiml(), '<?xml version="1.0" encoding="UTF-8"?><Response></Response>');
  });
});
