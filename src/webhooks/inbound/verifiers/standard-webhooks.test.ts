import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { signStandardWebhooks, verifyStandardWebhooks } from './standard-webhooks.js';

const vectors = JSON.parse(readFileSync(new URL('../../../../test/fixtures/webhook-signatures.json', import.meta.url), 'utf8'));
const v = vectors['standard-webhooks-v1'];
const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const now = 1_700_000_000_000;

function input(body: string, headers: Record<string, string>, at = now) {
  return { rawBody: Buffer.from(body), headers, url: 'https://example.com/webhooks/sw', now: at };
}

function libraryHeaders(body: string, id = 'msg_1', at = now, key = secret) {
  const signature = new Webhook(key).sign(id, new Date(at), body);
  return { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at / 1000)), 'webhook-signature': signature };
}

describe('Standard Webhooks verifier', () => {
  it('accepts the published vector', () => {
    const r = verifyStandardWebhooks(
      input(v.payload, { 'webhook-id': v.msg_id, 'webhook-timestamp': String(v.timestamp), 'webhook-signature': v.signature }, v.timestamp * 1000),
      { secret: v.secret },
    );
    assert.deepEqual(r, { ok: true, eventId: v.msg_id, timestamp: v.timestamp * 1000 });
  });

  it('accepts a request signed by the standardwebhooks library', () => {
    const body = '{"type":"user.created","data":{"id":1}}';
    assert.equal(verifyStandardWebhooks(input(body, libraryHeaders(body)), { secret }).ok, true);
  });

  it('produces headers the library verifies', () => {
    const body = '{"hello":"world"}';
    const headers = signStandardWebhooks({ secret, id: 'msg_x', body, timestamp: Math.floor(Date.now() / 1000) });
    assert.deepEqual(new Webhook(secret).verify(body, headers), { hello: 'world' });
  });

  it('accepts when one of several signatures matches (rotation)', () => {
    const body = '{"a":1}';
    const h = libraryHeaders(body);
    const other = libraryHeaders(body, 'msg_1', now, 'whsec_' + Buffer.from('another key').toString('base64'));
    h['webhook-signature'] = `v1a,ignored ${other['webhook-signature']} ${h['webhook-signature']}`;
    assert.equal(verifyStandardWebhooks(input(body, h), { secret }).ok, true);
  });

  it('rejects a signature one character short or long, or of the right length in other characters', () => {
    const body = '{"a":1}';
    const h = libraryHeaders(body);
    const good = h['webhook-signature'].slice(3);
    for (const sig of [good.slice(0, -1), `${good}A`, `${good.slice(0, -1)}é`, 'A'.repeat(good.length)]) {
      const r = verifyStandardWebhooks(input(body, { ...h, 'webhook-signature': `v1,${sig}` }), { secret });
      assert.equal(!r.ok && r.code, 'bad_signature', sig);
    }
  });

  it('verifies with whichever secret the config holds now, one source after another', () => {
    const body = '{}';
    const other = 'whsec_' + Buffer.from('another key, rotated in').toString('base64');
    assert.equal(verifyStandardWebhooks(input(body, libraryHeaders(body)), { secret }).ok, true);
    assert.equal(verifyStandardWebhooks(input(body, libraryHeaders(body, 'msg_1', now, other)), { secret: other }).ok, true);
    assert.equal(verifyStandardWebhooks(input(body, libraryHeaders(body)), { secret: other }).ok, false);
    assert.equal(verifyStandardWebhooks(input(body, libraryHeaders(body, 'msg_1', now, other)), { secret }).ok, false);
  });

  it('accepts svix-* headers', () => {
    const body = '{}';
    const h = libraryHeaders(body);
    const svix = { 'svix-id': h['webhook-id'], 'svix-timestamp': h['webhook-timestamp'], 'svix-signature': h['webhook-signature'] };
    assert.equal(verifyStandardWebhooks(input(body, svix), { secret }).ok, true);
  });

  it('rejects a tampered body', () => {
    const h = libraryHeaders('{"amount":1}');
    const r = verifyStandardWebhooks(input('{"amount":1000}', h), { secret });
    assert.equal(r.ok, false);
    assert.equal(!r.ok && r.code, 'bad_signature');
  });

  it('rejects the wrong secret and never echoes it', () => {
    const body = '{}';
    const wrong = 'whsec_' + Buffer.from('wrong secret bytes').toString('base64');
    const r = verifyStandardWebhooks(input(body, libraryHeaders(body)), { secret: wrong });
    assert.equal(!r.ok && r.code, 'bad_signature');
    assert.ok(!r.ok && !r.reason.includes(wrong) && !r.reason.includes(secret));
  });

  it('rejects stale and future timestamps beyond the tolerance', () => {
    const body = '{}';
    const old = verifyStandardWebhooks(input(body, libraryHeaders(body, 'm', now - 301_000)), { secret });
    const future = verifyStandardWebhooks(input(body, libraryHeaders(body, 'm', now + 301_000)), { secret });
    assert.equal(!old.ok && old.code, 'stale_timestamp');
    assert.equal(!future.ok && future.code, 'stale_timestamp');
    assert.equal(verifyStandardWebhooks(input(body, libraryHeaders(body, 'm', now - 299_000)), { secret }).ok, true);
    const wide = verifyStandardWebhooks(input(body, libraryHeaders(body, 'm', now - 3_000_000)), { secret, tolerance: 3600 });
    assert.equal(wide.ok, true);
  });

  it('rejects missing headers and malformed values', () => {
    const body = '{}';
    for (const drop of ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const) {
      const h: Record<string, string> = libraryHeaders(body);
      delete h[drop];
      const r = verifyStandardWebhooks(input(body, h), { secret });
      assert.equal(!r.ok && r.code, 'missing_signature', drop);
    }
    const badTs = { ...libraryHeaders(body), 'webhook-timestamp': 'yesterday' };
    assert.equal((verifyStandardWebhooks(input(body, badTs), { secret }) as { code: string }).code, 'malformed');
    const noV1 = { ...libraryHeaders(body), 'webhook-signature': 'v2,abc' };
    assert.equal((verifyStandardWebhooks(input(body, noV1), { secret }) as { code: string }).code, 'malformed');
  });

  it('throws a config error without a secret', () => {
    assert.throws(() => verifyStandardWebhooks(input('{}', {}), {}), /verify\.secret/);
    assert.throws(() => verifyStandardWebhooks(input('{}', {}), 'none'), /verify\.secret/);
  });
});
