import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeForm } from '../payload/form-body.js';
import { normalize } from './normalize.js';
import { mailgun, sampleMailgunEmail } from './mailgun.js';

describe('Mailgun route normalizer', () => {
  it('normalizes a urlencoded route post', async () => {
    const s = sampleMailgunEmail({ subject: 'Plain', text: 'just text', to: ['inbox@restwell.example'], date: 'Tue, 2 Jan 2024 10:00:00 +0100', messageId: '<mg@x>' });
    assert.match(s.contentType, /urlencoded/);
    const r = await normalize(mailgun, s.contentType, s.body);
    const e = r.kind === 'email' ? r.email : assert.fail();
    assert.equal(e.from, 'Marge Simpson <marge@example.com>');
    assert.deepEqual(e.to, ['inbox@restwell.example']);
    assert.equal(e.subject, 'Plain');
    assert.equal(e.text, 'just text');
    assert.equal(e.date, '2024-01-02T09:00:00.000Z');
    assert.equal(e.messageId, '<mg@x>');
    assert.equal(e.headers['message-id'], '<mg@x>');
    assert.deepEqual(e.attachments, []);
  });

  it('normalizes a multipart route post with attachments and inline content ids', async () => {
    const csv = Buffer.from('name,number\nHomer,555-7334\n');
    const s = sampleMailgunEmail(
      { attachments: [{ name: 'people.csv', type: 'text/csv', content: csv }, { name: 'logo.gif', type: 'image/gif', content: Buffer.from('GIF89a') }] },
      { 'content-id-map': JSON.stringify({ '<logo@x>': 'attachment-2' }) },
    );
    assert.match(s.contentType, /multipart/);
    const r = await normalize(mailgun, s.contentType, s.body);
    const e = r.kind === 'email' ? r.email : assert.fail();
    assert.deepEqual(e.attachments, [
      { name: 'people.csv', type: 'text/csv', size: csv.length, content: csv.toString('base64') },
      { name: 'logo.gif', type: 'image/gif', size: 6, content: Buffer.from('GIF89a').toString('base64'), contentId: 'logo@x' },
    ]);
  });

  it('reads stored-message attachment URLs and falls back to sender/recipient', async () => {
    const f = encodeForm({
      sender: 'bob@x.com', recipient: 'a@r.example,b@r.example', subject: 'Stored',
      attachments: JSON.stringify([{ url: 'https://storage.mailgun.net/v3/x', name: 'big.zip', 'content-type': 'application/zip', size: 1234 }]),
    });
    const r = await normalize(mailgun, f.contentType, f.body);
    const e = r.kind === 'email' ? r.email : assert.fail();
    assert.equal(e.from, 'bob@x.com');
    assert.deepEqual(e.to, ['a@r.example', 'b@r.example']);
    assert.deepEqual(e.attachments, [{ name: 'big.zip', type: 'application/zip', size: 1234, content: '', url: 'https://storage.mailgun.net/v3/x' }]);
  });

  it('treats JSON as an event webhook', async () => {
    const r = await normalize(mailgun, 'application/json', Buffer.from('{"event-data":{"event":"delivered"}}'));
    assert.deepEqual(r, { kind: 'event', payload: { 'event-data': { event: 'delivered' } } });
  });

  it('rejects malformed posts', async () => {
    const bad = encodeForm({ from: 'a@x', 'message-headers': 'not json' });
    await assert.rejects(normalize(mailgun, bad.contentType, bad.body), /message-headers/);
    const noFrom = encodeForm({ subject: 'x' });
    await assert.rejects(normalize(mailgun, noFrom.contentType, noFrom.body), /from or sender/);
    await assert.rejects(normalize(mailgun, 'text/html', Buffer.from('<p>')), /got text\/html/);
  });
});
