import { createHmac, randomBytes } from 'node:crypto';
import { isJsonContent, parseForm, parseJson } from '../payload/parse-payload.js';
import { contentTypeOf } from './headers.js';
import { safeEqual } from '../../../core/safe-equal.js';
import { checkTimestamp } from './timestamp.js';
import { fail, requireOptions, type Verifier, type VerifyInput } from './types.js';

interface MailgunSignature {
  timestamp?: string;
  token?: string;
  signature?: string;
}

const str = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : undefined);

/** Finds timestamp/token/signature: JSON webhooks nest them under `signature`, routes post them as fields. */
function readSignature(input: VerifyInput): MailgunSignature | undefined {
  const ct = contentTypeOf(input.headers, input.contentType);
  try {
    if (isJsonContent(ct)) {
      const body = parseJson(input.rawBody) as { signature?: Record<string, unknown> } | null;
      const sig = body && typeof body === 'object' ? body.signature : undefined;
      if (!sig || typeof sig !== 'object') return {};
      return { timestamp: str(sig.timestamp), token: str(sig.token), signature: str(sig.signature) };
    }
    const { fields } = parseForm(ct, input.rawBody);
    return { timestamp: fields.timestamp?.[0], token: fields.token?.[0], signature: fields.signature?.[0] };
  } catch {
    return undefined;
  }
}

function hexSignature(key: string, timestamp: string, token: string): string {
  return createHmac('sha256', key).update(timestamp + token).digest('hex');
}

/**
 * Mailgun: hex HMAC-SHA256 of `timestamp + token` keyed with the HTTP webhook signing key,
 * carried in the body. The timestamp must be within tolerance; the token is unique per delivery,
 * so de-duplicating on it also stops replays inside the window.
 */
export const verifyMailgun: Verifier = (input, config) => {
  const opts = requireOptions(config, 'Mailgun', 'secret');
  const sig = readSignature(input);
  if (!sig) return fail('malformed', 'the body is neither JSON nor a form, so it carries no Mailgun signature');
  if (!sig.timestamp || !sig.token || !sig.signature) {
    return fail('missing_signature', 'missing Mailgun timestamp, token or signature in the body');
  }
  const time = checkTimestamp(sig.timestamp, input.now ?? Date.now(), opts.tolerance);
  if (!('ms' in time)) return time;
  if (!safeEqual(sig.signature.toLowerCase(), hexSignature(opts.secret!, sig.timestamp, sig.token))) {
    return fail('bad_signature', 'the Mailgun signature does not match timestamp, token and signing key');
  }
  return { ok: true, timestamp: time.ms };
};

/** The three Mailgun signature fields for a delivery; token random unless given, timestamp now unless given. */
export function signMailgun(
  signingKey: string,
  o: { timestamp?: number; token?: string } = {},
): { timestamp: string; token: string; signature: string } {
  const timestamp = String(o.timestamp ?? Math.floor(Date.now() / 1000));
  const token = o.token ?? randomBytes(25).toString('hex');
  return { timestamp, token, signature: hexSignature(signingKey, timestamp, token) };
}
