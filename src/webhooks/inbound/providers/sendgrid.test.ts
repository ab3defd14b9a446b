import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeMultipart } from '../payload/form-body.js';
import { PayloadError } from '../payload/payload-error.js';
import { normalize } from './normalize.js';
import { sampleSendgridEmail, sendgrid } from './sendgrid.js';

const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

describe('SendGrid Inbound Parse normalizer', () => {
  it('normalizes a multipart post with attachments and attachment-info', async () => {
    const s = sampleSendgridEmail({
      from: { email: 'homer@example.com', name: 'Homer Simpson' },
      to: ['inbox@restwell.example', '"Doe, Jane" <jane@example.com>'],
      cc: ['lisa@example.com'],
      subject: 'Donuts',
      text: 'Mmm… donuts',
      date: 'Mon, 16 Jan 2012 17:00:01 +0000',
      messageId: '<donut@example.com>',
      attachments: [
        { name: 'donut.png', type: 'image/png', content: png },
        { name: 'notes.txt', type: 'text/plain', content: 'eat\n' },
      ],
    });
    const r = await normalize(sendgrid, s.contentType, s.body);
    const e = r.kind === 'email' ? r.email : assert.fail('expected email');
    assert.equal(e.from, 'Homer Simpson <homer@example.com>');
    assert.deepEqual(e.to, ['inbox@restwell.example', '"Doe, Jane" <jane@example.com>']);
    assert.deepEqual(e.cc, ['lisa@example.com']);
    assert.equal(e.subject, 'Donuts');
    assert.equal(e.text, 'Mmm… donuts');
    assert.equal(e.date, '2012-01-16T17:00:01.000Z');
    assert.equal(e.messageId, '<donut@example.com>');
    assert.equal(e.headers.subject, 'Donuts');
    assert.deepEqual(e.attachments, [
      { name: 'donut.png', type: 'image/png', size: png.length, content: png.toString('base64') },
      { name: 'notes.txt', type: 'text/plain', size: 4, content: Buffer.from('eat\n').toString('base64') },
    ]);
  });

  it('decodes text in the charsets SendGrid declares', async () => {
    const latin1 = Buffer.from('Caf\xe9 cr\xe8me', 'latin1');
    const enc = encodeMultipart({ from: 'a@x.com', to: 'b@y.com', subject: '=?UTF-8?Q?Caf=C3=A9?=', charsets: '{"text":"iso-8859-1"}', headers: '' }, []);
    // Splice raw latin-1 bytes into a text part, as SendGrid posts them.
    const extra = Buffer.concat([Buffer.from(`Content-Disposition: form-data; name="text"\r\n\r\n`), latin1, Buffer.from('\r\n')]);
    const boundary = enc.contentType.split('boundary=')[1]!;
    const body = Buffer.concat([Buffer.from(`--${boundary}\r\n`), extra, enc.body]);
    const r = await normalize(sendgrid, enc.contentType, body);
    const e = r.kind === 'email' ? r.email : assert.fail();
    assert.equal(e.text, 'Café crème');
    assert.equal(e.subject, 'Café');
  });

  it('rejects raw-MIME mode, missing sender, bad JSON fields and non-multipart bodies', async () => {
    const raw = encodeMultipart({ email: 'From: a@x\r\n\r\nhi', to: 'b@y' });
    await assert.rejects(normalize(sendgrid, raw.contentType, raw.body), /raw MIME/);
    const noFrom = encodeMultipart({ to: 'b@y', subject: 'x' });
    await assert.rejects(normalize(sendgrid, noFrom.contentType, noFrom.body), /from field/);
    const badInfo = encodeMultipart({ from: 'a@x', 'attachment-info': '{oops' });
    await assert.rejects(normalize(sendgrid, badInfo.contentType, badInfo.body), /attachment-info/);
    await assert.rejects(normalize(sendgrid, 'application/json', Buffer.from('{}')), PayloadError);
    await assert.rejects(normalize(sendgrid, 'multipart/form-data; boundary=x', Buffer.from('--x\r\ngarbage')), PayloadError);
  });
});
