import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findProvider } from './registry.js';

const eventIdFor = (name: string, headers: Record<string, string>, payload: unknown) => (findProvider(name) ?? assert.fail(name)).eventId(headers, payload);

describe('the providers\' event ids', () => {
  it('reads header ids', () => {
    assert.equal(eventIdFor('standard-webhooks', { 'webhook-id': 'msg_1' }, {}), 'msg_1');
    assert.equal(eventIdFor('standard-webhooks', { 'svix-id': 'msg_2' }, {}), 'msg_2');
    assert.equal(eventIdFor('github', { 'x-github-delivery': '72d3162e' }, {}), '72d3162e');
    assert.equal(eventIdFor('generic', { 'idempotency-key': 'k1' }, { id: 'x' }), 'k1');
  });

  it('reads body ids', () => {
    assert.equal(eventIdFor('stripe', {}, { id: 'evt_1', object: 'event' }), 'evt_1');
    assert.equal(eventIdFor('twilio', {}, { MessageSid: 'SM1', SmsStatus: 'received' }), 'SM1');
    assert.equal(eventIdFor('twilio', {}, { SmsSid: 'SM2' }), 'SM2');
    assert.equal(eventIdFor('twilio', {}, { MessageSid: 'SM3', MessageStatus: 'delivered' }), 'SM3:delivered');
    assert.equal(eventIdFor('twilio', { 'i-twilio-idempotency-token': 'tok' }, {}), 'tok');
    assert.equal(eventIdFor('vonage', {}, { messageId: '0A00' }), '0A00');
    assert.equal(eventIdFor('vonage', {}, { message_uuid: 'uuid-1' }), 'uuid-1');
    assert.equal(eventIdFor('postmark', {}, { MessageID: 'pm-1' }), 'pm-1');
    assert.equal(eventIdFor('mailgun', {}, { 'Message-Id': '<a@b>', token: 't' }), '<a@b>');
    assert.equal(eventIdFor('mailgun', {}, { token: 't' }), 't');
    assert.equal(eventIdFor('mailgun', {}, { signature: { token: 't2' }, 'event-data': { id: 'ev' } }), 'ev');
    assert.equal(eventIdFor('sendgrid', {}, { headers: 'From: a@b\r\nMessage-ID: <sg@x>\r\nSubject: hi' }), '<sg@x>');
    assert.equal(eventIdFor('cloudmailin', {}, { headers: { message_id: '<cm@x>' } }), '<cm@x>');
    assert.equal(eventIdFor('cloudmailin', {}, { headers: { 'Message-ID': '<cm2@x>' } }), '<cm2@x>');
  });

  it('returns undefined when there is no id or the body is not an object', () => {
    assert.equal(eventIdFor('stripe', {}, null), undefined);
    assert.equal(eventIdFor('postmark', {}, ['x']), undefined);
    assert.equal(eventIdFor('sendgrid', {}, {}), undefined);
    assert.equal(eventIdFor('github', {}, { id: 1 }), undefined);
  });
});
