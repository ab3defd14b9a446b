import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import { encodeForm, encodeMultipart } from '../payload/form-body.js';
import { signMailgun, verifyMailgun } from './mailgun.js';

const key = 'key-3ax6xnjp29jd6fds4gc373sgvjxteol0';
const now = 1_700_000_000_000;
const ts = now / 1000;

const input = (body: Buffer, contentType: string, at = now) => ({
  rawBody: body,
  headers: { 'content-type': contentType },
  url: 'https://x/webhooks/mail',
  now: at,
});
const jsonBody = (sig: object) => Buffer.from(JSON.stringify({ signature: sig, 'event-data': { id: 'ev1', event: 'delivered' } }));

describe('Mailgun verifier', () => {
  it('computes the documented HMAC of timestamp + token', () => {
    const s = signMailgun(key, { timestamp: ts, token: 'tok123' });
    assert.equal(s.signature, createHmac('sha256', key).update(`${ts}tok123`).digest('hex'));
  });

  it('accepts JSON event webhooks', () => {
    const r = verifyMailgun(input(jsonBody(signMailgun(key, { timestamp: ts })), 'application/json'), { secret: key });
    assert.deepEqual(r, { ok: true, timestamp: now });
  });

  it('accepts urlencoded and multipart route posts', () => {
    const sig = signMailgun(key, { timestamp: ts });
    const form = encodeForm({ sender: 'a@x.com', subject: 'Hi', ...sig });
    assert.equal(verifyMailgun(input(form.body, form.contentType), { secret: key }).ok, true);
    const mp = encodeMultipart({ sender: 'a@x.com', 'body-plain': 'hello', ...sig }, [
      { field: 'attachment-1', filename: 'a.txt', contentType: 'text/plain', data: 'file' },
    ]);
    assert.equal(verifyMailgun(input(mp.body, mp.contentType), { secret: key }).ok, true);
  });

  it('rejects a forged signature and the wrong key', () => {
    const sig = signMailgun(key, { timestamp: ts });
    const forged = verifyMailgun(input(jsonBody({ ...sig, token: 'other-token' }), 'application/json'), { secret: key });
    const wrong = verifyMailgun(input(jsonBody(sig), 'application/json'), { secret: 'key-other' });
    assert.equal(!forged.ok && forged.code, 'bad_signature');
    assert.equal(!wrong.ok && wrong.code, 'bad_signature');
  });

  it('rejects stale and future timestamps', () => {
    const old = verifyMailgun(input(jsonBody(signMailgun(key, { timestamp: ts - 301 })), 'application/json'), { secret: key });
    const future = verifyMailgun(input(jsonBody(signMailgun(key, { timestamp: ts + 301 })), 'application/json'), { secret: key });
    assert.equal(!old.ok && old.code, 'stale_timestamp');
    assert.equal(!future.ok && future.code, 'stale_timestamp');
  });

  it('rejects missing fields and unreadable bodies', () => {
    const missing = verifyMailgun(input(Buffer.from('{"event-data":{}}'), 'application/json'), { secret: key });
    const form = encodeForm({ timestamp: String(ts), token: 't' });
    const noSig = verifyMailgun(input(form.body, form.contentType), { secret: key });
    const garbage = verifyMailgun(input(Buffer.from('{not json'), 'application/json'), { secret: key });
    const text = verifyMailgun(input(Buffer.from('hello'), 'text/plain'), { secret: key });
    assert.equal(!missing.ok && missing.code, 'missing_signature');
    assert.equal(!noSig.ok && noSig.code, 'missing_signature');
    assert.equal(!garbage.ok && garbage.code, 'malformed');
    assert.equal(!text.ok && text.code, 'malformed');
  });
});
