import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeEncodedWords, formatAddress, parseHeaderBlock, splitAddresses, toIsoDate } from './mail-headers.js';

describe('mail header helpers', () => {
  it('decodes RFC 2047 encoded words in B and Q forms and other charsets', () => {
    assert.equal(decodeEncodedWords('=?UTF-8?B?R3LDvMOfZQ==?= und =?UTF-8?Q?K=C3=BCsse_!?='), 'Grüße und Küsse !');
    assert.equal(decodeEncodedWords('=?ISO-8859-1?Q?J=F6rg?= <j@example.com>'), 'Jörg <j@example.com>');
    assert.equal(decodeEncodedWords('=?UTF-8?B?YQ==?= =?UTF-8?B?Yg==?='), 'ab');
    assert.equal(decodeEncodedWords('plain'), 'plain');
  });

  it('parses folded header blocks, keeping repeats', () => {
    const h = parseHeaderBlock('Received: by a\r\nReceived: by b;\r\n\tfolded\r\nSubject: Hi\r\nMessage-ID: <1@x>\r\n');
    assert.deepEqual(h, { received: 'by a\nby b; folded', subject: 'Hi', 'message-id': '<1@x>' });
  });

  it('splits address lists without breaking quoted names', () => {
    assert.deepEqual(splitAddresses('a@x.com, "Doe, Jane" <jane@y.com>,Bob (Sales, EMEA) <b@z.com>, '), [
      'a@x.com',
      '"Doe, Jane" <jane@y.com>',
      'Bob (Sales, EMEA) <b@z.com>',
    ]);
    assert.deepEqual(splitAddresses(undefined), []);
  });

  it('formats addresses and dates', () => {
    assert.equal(formatAddress('a@x.com', 'Ann Example'), 'Ann Example <a@x.com>');
    assert.equal(formatAddress('a@x.com', 'Doe, Jane'), '"Doe, Jane" <a@x.com>');
    assert.equal(formatAddress('a@x.com', ''), 'a@x.com');
    assert.equal(toIsoDate('Fri, 1 Aug 2014 16:45:32 -0400'), '2014-08-01T20:45:32.000Z');
    assert.equal(toIsoDate('Fri, 1 Aug 2014 16:45:32 -04:00'), '2014-08-01T20:45:32.000Z');
    assert.equal(toIsoDate('Mon, 16 Jan 2012 17:00:01 +0000 (UTC)'), '2012-01-16T17:00:01.000Z');
    assert.equal(toIsoDate('not a date'), null);
    assert.equal(toIsoDate(undefined), null);
  });
});
