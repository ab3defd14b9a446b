import { headerValue } from './headers.js';
import { publicLengthEqualAny } from '../../../core/safe-equal.js';
import {
  standardWebhooksHeaders, standardWebhooksKey as decodeKey, standardWebhooksSignature, v1Signatures, WebhookSecretError,
} from '../../standard-webhooks-signature.js';
import { checkTimestamp } from './timestamp.js';
import { fail, requireOptions, VerifyConfigError, type Verifier, type VerifyOptions } from './types.js';

/** Decodes a Standard Webhooks secret: `whsec_` + base64 key bytes (the prefix is optional). */
export function standardWebhooksKey(secret: string): Buffer {
  try {
    return decodeKey(secret);
  } catch (err) {
    // A bad secret here is the source's configuration, so it fails as a config error, not a 401.
    if (err instanceof WebhookSecretError) throw new VerifyConfigError('verify.secret is not a whsec_ base64 secret');
    throw err;
  }
}

/**
 * Decoded keys by a source's verify options: each source's secret is decoded once, not on every
 * delivery, and forgotten with its config (nothing to bound or clear).
 */
const keys = new WeakMap<VerifyOptions, Buffer>();

function keyFor(opts: VerifyOptions): Buffer {
  let key = keys.get(opts);
  if (!key) keys.set(opts, (key = standardWebhooksKey(opts.secret!)));
  return key;
}

/**
 * Standard Webhooks v1 (also Svix's `svix-*` headers): HMAC-SHA256 of `id.timestamp.body`,
 * several space-separated `v1,<base64>` signatures allowed (key rotation), ±tolerance seconds.
 */
export const verifyStandardWebhooks: Verifier = (input, config) => {
  const opts = requireOptions(config, 'Standard Webhooks', 'secret');
  const key = keyFor(opts);
  const h = (name: string) => headerValue(input.headers, `webhook-${name}`) ?? headerValue(input.headers, `svix-${name}`);
  const id = h('id');
  const ts = h('timestamp');
  const sigHeader = h('signature');
  if (!id || !ts || !sigHeader) {
    return fail('missing_signature', 'missing webhook-id, webhook-timestamp or webhook-signature header');
  }
  const time = checkTimestamp(ts, input.now ?? Date.now(), opts.tolerance);
  if (!('ms' in time)) return time;
  const candidates = v1Signatures(sigHeader);
  if (candidates.length === 0) return fail('malformed', 'webhook-signature has no v1 signature');
  const expected = standardWebhooksSignature(key, id, ts.trim(), input.rawBody);
  // Each presented signature is compared against the one we compute; any may match.
  if (!publicLengthEqualAny(expected, candidates)) return fail('bad_signature', 'no webhook-signature matches the body and secret');
  return { ok: true, eventId: id, timestamp: time.ms };
};

/** Options for {@link signStandardWebhooks}. */
export interface StandardWebhooksSignOptions {
  secret: string;
  id: string;
  body: string | Buffer;
  /** Unix seconds; defaults to now. */
  timestamp?: number;
}

/** Builds the three Standard Webhooks headers for a body (used by `restwell hooks send` and tests). */
export function signStandardWebhooks(o: StandardWebhooksSignOptions): Record<string, string> {
  return standardWebhooksHeaders({ secrets: [o.secret], id: o.id, body: o.body, timestamp: o.timestamp });
}
