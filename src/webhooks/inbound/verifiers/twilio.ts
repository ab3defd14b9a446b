import { createHash, createHmac } from 'node:crypto';
import { parseForm } from '../payload/parse-payload.js';
import { contentTypeOf, headerValue } from './headers.js';
import { safeEqual, safeEqualAny } from '../../../core/safe-equal.js';
import { signedUrl, withoutPort, withPort } from './signed-url.js';
import { fail, requireOptions, type Verifier } from './types.js';

/** Twilio's string to sign: the URL, then each parameter name+value, names sorted. */
function signingString(url: string, params: Record<string, string[]>): string {
  let data = url;
  for (const key of Object.keys(params).sort()) {
    // Repeated names: each distinct value once, values sorted, as Twilio's own validators do.
    for (const value of [...new Set(params[key])].sort()) data += key + value;
  }
  return data;
}

/** Twilio's X-Twilio-Signature for a URL and parameters: base64 HMAC-SHA1 keyed with the auth token. */
export function twilioSignature(authToken: string, url: string, params: Record<string, string | string[]> = {}): string {
  const norm: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(params)) norm[k] = Array.isArray(v) ? v : [v];
  return createHmac('sha1', authToken).update(signingString(url, norm), 'utf8').digest('base64');
}

function bodySha256Param(url: string): string | undefined {
  const q = url.indexOf('?');
  if (q < 0) return undefined;
  return new URLSearchParams(url.slice(q + 1).split('#')[0]).get('bodySHA256') ?? undefined;
}

/**
 * Twilio `X-Twilio-Signature`. Form bodies: HMAC-SHA1 over the full URL plus sorted parameters.
 * JSON bodies: the URL carries `bodySHA256` (hex SHA-256 of the raw body) and only the URL is signed.
 * The URL is tried with and without its port, because Twilio may sign either form.
 */
export const verifyTwilio: Verifier = (input, config) => {
  const opts = requireOptions(config, 'Twilio', 'authToken');
  const header = headerValue(input.headers, 'x-twilio-signature');
  if (!header) return fail('missing_signature', 'missing X-Twilio-Signature header');
  const url = signedUrl(input.url, opts.publicUrl);
  const bodyHash = bodySha256Param(url);
  let params: Record<string, string[]> = {};
  if (bodyHash !== undefined) {
    const actual = createHash('sha256').update(input.rawBody).digest('hex');
    if (!safeEqual(bodyHash.toLowerCase(), actual)) return fail('bad_signature', 'bodySHA256 does not match the body');
  } else if (input.rawBody.length > 0) {
    try {
      params = parseForm(contentTypeOf(input.headers, input.contentType), input.rawBody).fields;
    } catch {
      return fail('malformed', 'Twilio bodies must be form-encoded, or JSON with bodySHA256 in the URL');
    }
  }
  const candidates = [...new Set([url, withoutPort(url), withPort(url)])].map((u) =>
    twilioSignature(opts.authToken!, u, params),
  );
  if (!safeEqualAny(header.trim(), candidates)) {
    return fail('bad_signature', 'X-Twilio-Signature does not match the URL, parameters and auth token');
  }
  return { ok: true };
};

/**
 * Signs a Twilio request. With `params`, signs a form post to `url`. With `jsonBody`, appends
 * `bodySHA256` to the URL and signs that URL alone. Returns the URL to post to and the header value.
 */
export function signTwilio(o: {
  authToken: string;
  url: string;
  params?: Record<string, string | string[]>;
  jsonBody?: string | Buffer;
}): { url: string; signature: string } {
  let url = o.url;
  if (o.jsonBody !== undefined) {
    const hash = createHash('sha256').update(o.jsonBody).digest('hex');
    url += `${url.includes('?') ? '&' : '?'}bodySHA256=${hash}`;
    return { url, signature: twilioSignature(o.authToken, url) };
  }
  return { url, signature: twilioSignature(o.authToken, url, o.params ?? {}) };
}
