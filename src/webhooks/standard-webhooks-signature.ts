import { createHmac } from 'node:crypto';

/**
 * Standard Webhooks signatures, the one implementation both directions use: the inbound verifier
 * checks them on deliveries Restwell receives, the outbound sender writes them on deliveries it sends.
 */

/** A secret that is not a `whsec_` base64 key. */
export class WebhookSecretError extends Error {
  override name = 'WebhookSecretError';
}

/** Decodes a Standard Webhooks secret: `whsec_` + base64 key bytes (the prefix is optional, as the spec's libraries allow). */
export function standardWebhooksKey(secret: string): Buffer {
  const b64 = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret;
  const key = Buffer.from(b64, 'base64');
  if (key.length === 0) throw new WebhookSecretError('the secret is not whsec_ followed by base64 key bytes');
  return key;
}

/** The base64 HMAC-SHA256 of `{id}.{timestamp}.{body}`, over the body's exact bytes (never re-serialized JSON). */
export function standardWebhooksSignature(key: Buffer, id: string, timestamp: string, body: Buffer | string): string {
  return createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest('base64');
}

/** The base64 values of the `v1,` signatures in a `webhook-signature` header (other versions are ignored). */
export function v1Signatures(header: string): string[] {
  return header
    .split(/\s+/)
    .map((s) => s.replace(/,+$/, ''))
    .filter((s) => s.startsWith('v1,'))
    .map((s) => s.slice(3));
}

/** Options for {@link standardWebhooksHeaders}. */
export interface StandardWebhooksHeadersOptions {
  /** Each secret adds one signature: during a rotation's overlap receivers may hold either. */
  secrets: readonly string[];
  id: string;
  body: string | Buffer;
  /** Unix seconds; defaults to now. */
  timestamp?: number;
}

/** The `webhook-id`, `webhook-timestamp` and `webhook-signature` headers for a body. */
export function standardWebhooksHeaders(o: StandardWebhooksHeadersOptions): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  const ts = String(o.timestamp ?? Math.floor(Date.now() / 1000));
  const signatures = o.secrets.map((secret) => `v1,${standardWebhooksSignature(standardWebhooksKey(secret), o.id, ts, o.body)}`);
  return { 'webhook-id': o.id, 'webhook-timestamp': ts, 'webhook-signature': signatures.join(' ') };
}
