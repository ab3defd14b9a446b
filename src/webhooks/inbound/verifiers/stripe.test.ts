import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import Stripe from 'stripe';
import { signStripe, verifyStripe } from './stripe.js';

const vectors = JSON.parse(readFileSync(new URL('../../../../test/fixtures/webhook-signatures.json', import.meta.url), 'utf8'));
const secret = 'whsec_test_secret';
const now = 1_700_000_000_000;
const t = now / 1000;
const body = JSON.stringify({ id: 'evt_1', object: 'event', type: 'payment_intent.succeeded' }, null, 2);

const input = (raw: string, header?: string, at = now) => ({
  rawBody: Buffer.from(raw),
  headers: header === undefined ? {} : { 'stripe-signature': header },
  url: 'https://x/webhooks/stripe',
  now: at,
});
const libraryHeader = (o: { payload?: string; timestamp?: number; secret?: string } = {}) =>
  Stripe.webhooks.generateTestHeaderString({ payload: o.payload ?? body, secret: o.secret ?? secret, timestamp: o.timestamp ?? t });

describe('Stripe verifier', () => {
  it('uses the published HMAC primitive (keyed with the secret string as-is)', () => {
    const s = vectors['stripe-hmac'];
    for (const vec of s.vectors) assert.equal(createHmac('sha256', s.key).update(vec.message).digest('hex'), vec.hex);
    // signStripe signs "t.body" with the same primitive.
    const expected = createHmac('sha256', s.key).update(`${t}.${s.vectors[1].message}`).digest('hex');
    assert.equal(signStripe(s.key, s.vectors[1].message, t), `t=${t},v1=${expected}`);
  });

  it('accepts a header built by stripe.webhooks.generateTestHeaderString', () => {
    assert.deepEqual(verifyStripe(input(body, libraryHeader()), { secret }), { ok: true, timestamp: now });
  });

  it('produces headers the stripe library accepts', () => {
    const header = signStripe(secret, body);
    const event = Stripe.webhooks.constructEvent(body, header, secret);
    assert.equal(event.id, 'evt_1');
  });

  it('accepts when one of several v1 signatures matches, ignoring v0', () => {
    const good = libraryHeader();
    const bad = libraryHeader({ secret: 'whsec_old' });
    const header = `t=${t},v1=${bad.split('v1=')[1]},v0=deadbeef,v1=${good.split('v1=')[1]}`;
    assert.equal(verifyStripe(input(body, header), { secret }).ok, true);
  });

  it('rejects a tampered body and the wrong secret', () => {
    const tampered = verifyStripe(input(body.replace('succeeded', 'failed'), libraryHeader()), { secret });
    const wrong = verifyStripe(input(body, libraryHeader({ secret: 'whsec_other' })), { secret });
    assert.equal(!tampered.ok && tampered.code, 'bad_signature');
    assert.equal(!wrong.ok && wrong.code, 'bad_signature');
  });

  it('rejects stale and future timestamps (default tolerance 300 s)', () => {
    const stale = verifyStripe(input(body, libraryHeader({ timestamp: t - 301 })), { secret });
    const future = verifyStripe(input(body, libraryHeader({ timestamp: t + 301 })), { secret });
    assert.equal(!stale.ok && stale.code, 'stale_timestamp');
    assert.equal(!future.ok && future.code, 'stale_timestamp');
    assert.equal(verifyStripe(input(body, libraryHeader({ timestamp: t - 600 })), { secret, tolerance: 900 }).ok, true);
  });

  it('rejects missing and malformed headers', () => {
    const missing = verifyStripe(input(body), { secret });
    const noT = verifyStripe(input(body, 'v1=abc'), { secret });
    const noV1 = verifyStripe(input(body, `t=${t},v0=abc`), { secret });
    assert.equal(!missing.ok && missing.code, 'missing_signature');
    assert.equal(!noT.ok && noT.code, 'malformed');
    assert.equal(!noV1.ok && noV1.code, 'malformed');
  });
});
