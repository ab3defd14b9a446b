import { createHmac } from 'node:crypto';
import { headerValue } from './headers.js';
import { publicLengthEqualAny } from '../../../core/safe-equal.js';
import { checkTimestamp } from './timestamp.js';
import { fail, requireOptions, type Verifier } from './types.js';

function hexSignature(secret: string, timestamp: string, body: Buffer): string {
  // Stripe keys the HMAC with the whole `whsec_…` string, not its decoded bytes.
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
}

/**
 * Stripe `Stripe-Signature: t=<unix>,v1=<hex>[,v1=<hex>…]` over `t.body`.
 * Several v1 entries appear while a secret is being rolled; any may match.
 */
export const verifyStripe: Verifier = (input, config) => {
  const opts = requireOptions(config, 'Stripe', 'secret');
  const header = headerValue(input.headers, 'stripe-signature');
  if (!header) return fail('missing_signature', 'missing Stripe-Signature header');
  let t: string | undefined;
  const v1: string[] = [];
  for (const item of header.split(',')) {
    const eq = item.indexOf('=');
    if (eq < 0) continue;
    const k = item.slice(0, eq).trim();
    const v = item.slice(eq + 1).trim();
    if (k === 't') t = v;
    else if (k === 'v1') v1.push(v.toLowerCase());
  }
  if (t === undefined) return fail('malformed', 'Stripe-Signature has no t= timestamp');
  if (v1.length === 0) return fail('malformed', 'Stripe-Signature has no v1= signature');
  const time = checkTimestamp(t, input.now ?? Date.now(), opts.tolerance);
  if (!('ms' in time)) return time;
  const expected = hexSignature(opts.secret!, t, input.rawBody);
  if (!publicLengthEqualAny(expected, v1)) return fail('bad_signature', 'no Stripe-Signature v1 matches the body and secret');
  return { ok: true, timestamp: time.ms };
};

/** The `Stripe-Signature` header value for a body; `timestamp` in Unix seconds, default now. */
export function signStripe(secret: string, body: string | Buffer, timestamp?: number): string {
  const t = String(timestamp ?? Math.floor(Date.now() / 1000));
  return `t=${t},v1=${hexSignature(secret, t, typeof body === 'string' ? Buffer.from(body) : body)}`;
}
