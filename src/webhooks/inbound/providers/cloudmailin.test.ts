import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeMultipart } from '../payload/form-body.js';
import { normalize } from './normalize.js';
import { cloudmailin, sampleCloudmailinEmail } from './cloudmailin.js';

describe('CloudMailin normalizer', () => {
  it('normalizes the JSON (normalized) format with attachments', async () => {
    const s = sampleCloudmailinEmail({
      to: ['inbox@restwell.example'], cc: ['c@x.com'], subject: 'CM', date: 'Mon, 16 Jan 2012 17:00:01 +0000', messageId: '<cm@x>',
      attachments: [{ name: 'a.txt', type: 'text/plain', content: 'hello' }],
    });
    const r = await normalize(cloudmailin, 'application/json', s.body);
    const e = r.kind === 'email' ? r.email : assert.fail();
    assert.equal(e.from, 'Marge Simpson <marge@example.com>');
    assert.deepEqual(e.to, ['inbox@restwell.example']);
    assert.deepEqual(e.cc, ['c@x.com']);
    assert.equal(e.subject, 'CM');
    assert.equal(e.date, '2012-01-16T17:00:01.000Z');
    assert.equal(e.messageId, '<cm@x>');
    assert.equal(e.headers.received, 'by mx.cloudmailin.net\nby mail.example.com');
    assert.deepEqual(e.attachments, [{ name: 'a.txt', type: 'text/plain', size: 5, content: Buffer.from('hello').toString('base64') }]);
  });

  it('reads the original format\'s header names and URL attachments', async () => {
    const body = {
      headers: { From: 'x@y.com', To: 'a@b.com', Subject: 'Old', 'Message-ID': '<o@x>' },
      envelope: { from: 'x@y.com', to: 'a@b.com' },
      plain: 'p',
      attachments: [{ file_name: 'f.pdf', content_type: 'application/pdf', size: 99, url: 'https://s3/f.pdf' }],
    };
    const r = await normalize(cloudmailin, 'application/json', Buffer.from(JSON.stringify(body)));
    const e = r.kind === 'email' ? r.email : assert.fail();
    assert.deepEqual([e.from, e.to, e.subject, e.messageId, e.text], ['x@y.com', ['a@b.com'], 'Old', '<o@x>', 'p']);
    assert.deepEqual(e.attachments, [{ name: 'f.pdf', type: 'application/pdf', size: 99, content: '', url: 'https://s3/f.pdf' }]);
  });

  it('normalizes the multipart format', async () => {
    const mp = encodeMultipart(
      { 'headers[From]': 'x@y.com', 'headers[Subject]': 'MP', 'envelope[to]': 'in@r.example', 'envelope[recipients][]': 'in@r.example', plain: 'body' },
      [{ field: 'attachments[0]', filename: 'n.txt', contentType: 'text/plain', data: 'note' }],
    );
    const r = await normalize(cloudmailin, mp.contentType, mp.body);
    const e = r.kind === 'email' ? r.email : assert.fail();
    assert.deepEqual([e.from, e.to, e.subject, e.text], ['x@y.com', ['in@r.example'], 'MP', 'body']);
    assert.equal(e.attachments[0]!.name, 'n.txt');
  });

  it('rejects malformed input', async () => {
    await assert.rejects(normalize(cloudmailin, 'application/json', Buffer.from('"string"')), /JSON object/);
    await assert.rejects(normalize(cloudmailin, 'application/json', Buffer.from('{"plain":"x"}')), /headers\.from/);
    await assert.rejects(normalize(cloudmailin, 'application/json', Buffer.from('{"headers":{"from":"a@x"},"attachments":[1]}')), /attachments\[0\]/);
  });
});
