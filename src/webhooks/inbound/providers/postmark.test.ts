import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { normalize } from './normalize.js';
import { PayloadError } from '../payload/payload-error.js';
import { normalizePostmark, postmark, samplePostmarkEmail } from './postmark.js';

const pdf = Buffer.from('%PDF-1.4 fake pdf bytes');

describe('Postmark inbound normalizer', () => {
  it('normalizes a realistic inbound e-mail with attachments', async () => {
    const s = samplePostmarkEmail({
      from: { email: 'marge@example.com', name: 'Marge Simpson' },
      to: ['inbox@restwell.example', 'ops@restwell.example'],
      cc: ['bart@example.com'],
      subject: 'Invoice',
      date: 'Fri, 1 Aug 2014 16:45:32 -04:00',
      messageId: '<abc@mail.example.com>',
      attachments: [{ name: 'invoice.pdf', type: 'application/pdf', content: pdf }],
    });
    const r = await normalize(postmark, 'application/json; charset=utf-8', s.body);
    assert.equal(r.kind, 'email');
    const e = r.kind === 'email' ? r.email : assert.fail();
    assert.equal(e.from, 'Marge Simpson <marge@example.com>');
    assert.deepEqual(e.to, ['inbox@restwell.example', 'ops@restwell.example']);
    assert.deepEqual(e.cc, ['bart@example.com']);
    assert.equal(e.subject, 'Invoice');
    assert.equal(e.date, '2014-08-01T20:45:32.000Z');
    assert.equal(e.messageId, '<abc@mail.example.com>');
    assert.equal(e.headers['x-spam-status'], 'No');
    assert.deepEqual(e.attachments, [{ name: 'invoice.pdf', type: 'application/pdf', size: pdf.length, content: pdf.toString('base64') }]);
    assert.match(e.text, /test message/);
  });

  it('falls back to From/To strings and Postmark\'s MessageID', () => {
    const e = normalizePostmark({ From: 'a@x.com', To: '"Doe, J" <j@y.com>, k@z.com', MessageID: 'pm-1', Subject: 'S' });
    assert.equal(e.from, 'a@x.com');
    assert.deepEqual(e.to, ['"Doe, J" <j@y.com>', 'k@z.com']);
    assert.equal(e.messageId, 'pm-1');
    assert.deepEqual([e.text, e.html, e.date, e.attachments], ['', '', null, []]);
  });

  it('rejects malformed payloads with PayloadError', async () => {
    await assert.rejects(normalize(postmark, 'application/json', Buffer.from('{"From": ')), PayloadError);
    await assert.rejects(normalize(postmark, 'application/json', Buffer.from('[1,2]')), /JSON object/);
    await assert.rejects(normalize(postmark, 'application/json', Buffer.from('{"Subject":"no sender"}')), /From/);
    await assert.rejects(normalize(postmark, 'application/json', Buffer.from('{"From":"a@x","Attachments":{}}')), /Attachments/);
    await assert.rejects(
      normalize(postmark, 'application/json', Buffer.from('{"From":"a@x","Attachments":[{"Name":"a","Content":"not base64!"}]}')),
      /base64/,
    );
    await assert.rejects(normalize(postmark, 'text/plain', Buffer.from('hi')), /postmark sends application\/json; got text\/plain/);
  });
});
