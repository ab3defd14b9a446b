import { createHash, createHmac } from 'node:crypto';
import { signedParams } from './form-params.js';
import { safeEqual } from '../../../core/safe-equal.js';
import { checkTimestamp } from './timestamp.js';
import { fail, requireOptions, type VerifyInput, type Verifier, type VonageSignatureMethod } from './types.js';

/** Vonage's string to sign: `&key=value` for each parameter but `sig`, keys sorted; `&` and `=` in values become `_`. */
function signingString(params: Record<string, string>): string {
  let s = '';
  for (const key of Object.keys(params).sort()) {
    if (key === 'sig') continue;
    s += `&${key}=${params[key]!.replace(/[&=]/g, '_')}`;
  }
  return s;
}

/**
 * The `sig` value for parameters: `md5hash` is MD5 of the string plus the secret (lower-case hex),
 * the others are HMACs keyed with the signature secret (upper-case hex, as Vonage sends them).
 */
export function vonageSignature(
  params: Record<string, string>,
  secret: string,
  method: VonageSignatureMethod = 'sha256',
): string {
  const data = signingString(params);
  if (method === 'md5hash') return createHash('md5').update(data + secret, 'utf8').digest('hex');
  return createHmac(method, secret).update(data, 'utf8').digest('hex').toUpperCase();
}

/** Body parameters, or the query string's when the body carries none (Vonage GET webhooks). */
function paramsOf(input: VerifyInput): Record<string, string> | undefined {
  let fields = signedParams(input);
  if (fields && Object.keys(fields).length === 0) {
    const q = input.url.indexOf('?');
    fields = {};
    if (q >= 0) for (const [k, v] of new URLSearchParams(input.url.slice(q + 1))) (fields[k] ??= []).push(v);
  }
  if (!fields) return undefined;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(fields)) out[k] = v[0] ?? '';
  return out;
}

/**
 * Vonage signed SMS webhooks: a `sig` parameter computed with the account's signature secret
 * over the other parameters, including a `timestamp` that must be within tolerance.
 */
export const verifyVonageSignature: Verifier = (input, config) => {
  const opts = requireOptions(config, 'Vonage signature', 'secret');
  const params = paramsOf(input);
  if (!params) return fail('malformed', 'the body is neither JSON nor a form, so it carries no Vonage sig');
  const sig = params.sig;
  if (!sig) return fail('missing_signature', 'missing Vonage sig parameter');
  if (!params.timestamp) return fail('missing_signature', 'missing Vonage timestamp parameter');
  const time = checkTimestamp(params.timestamp, input.now ?? Date.now(), opts.tolerance);
  if (!('ms' in time)) return time;
  const expected = vonageSignature(params, opts.secret!, opts.algorithm ?? 'sha256');
  if (!safeEqual(sig.toLowerCase(), expected.toLowerCase())) {
    return fail('bad_signature', 'the Vonage sig does not match the parameters and signature secret');
  }
  return { ok: true, timestamp: time.ms };
};

/** Returns `params` plus `timestamp` (if absent) and a matching `sig`. */
export function signVonage(
  params: Record<string, string>,
  secret: string,
  method: VonageSignatureMethod = 'sha256',
): Record<string, string> {
  const out = { ...params, timestamp: params.timestamp ?? String(Math.floor(Date.now() / 1000)) };
  return { ...out, sig: vonageSignature(out, secret, method) };
}
