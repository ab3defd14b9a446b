import type { VerifyOptions, VonageSignatureMethod } from '../../../config/types.js';

/** The verify keys are part of the config; verifiers take them as the config gives them. */
export type { VerifyOptions, VonageSignatureMethod };

/** Header map as Node gives it: lower-cased names, repeated headers possibly as arrays. */
export type HeaderMap = Record<string, string | string[] | undefined>;

/** What a verifier looks at: the request exactly as it arrived, before any parsing. */
export interface VerifyInput {
  /** The body bytes as received; signatures are always checked over these, never re-serialized JSON. */
  rawBody: Buffer;
  /** Request headers with lower-cased names. */
  headers: HeaderMap;
  /** Full public URL including the query string, as the provider signed it (Twilio signs it). */
  url: string;
  /** The request's Content-Type header, when the caller has it separately. */
  contentType?: string;
  /** Current time in milliseconds; tests pass a fixed clock. Defaults to `Date.now()`. */
  now?: number;
}

/** The `verify` value of a source: options, or the explicit string `none`. */
export type VerifyConfig = VerifyOptions | 'none';

/** Why a delivery was rejected; stable values the HTTP layer can map to problems and logs. */
export type VerifyFailureCode =
  | 'missing_signature'
  | 'bad_signature'
  | 'stale_timestamp'
  | 'bad_credentials'
  | 'malformed';

/** Outcome of a verification. `reason` is human-readable and never contains secrets. */
export type VerifyResult =
  | { ok: true; eventId?: string; /** signed time, ms since epoch */ timestamp?: number }
  | { ok: false; reason: string; code: VerifyFailureCode };

/** The one signature every scheme implements. Pure and synchronous. */
export type Verifier = (input: VerifyInput, config: VerifyConfig) => VerifyResult;

/**
 * Thrown when a verifier is called with a `verify` config that lacks the keys it needs.
 * That is a configuration mistake, not bad input, so it fails loudly instead of answering 401.
 */
export class VerifyConfigError extends Error {
  override name = 'VerifyConfigError';
}

/** Builds a failure result. */
export function fail(code: VerifyFailureCode, reason: string): VerifyResult {
  return { ok: false, code, reason };
}

/** Returns the options object, or throws when the config is `none` or lacks `keys`. */
export function requireOptions(
  config: VerifyConfig,
  scheme: string,
  ...keys: (keyof VerifyOptions)[]
): VerifyOptions {
  if (config === 'none' || typeof config !== 'object' || config === null) {
    throw new VerifyConfigError(`${scheme} verification needs verify.${keys.join(' and verify.')}`);
  }
  for (const key of keys) {
    const value = config[key];
    if (typeof value !== 'string' || value === '') {
      throw new VerifyConfigError(`${scheme} verification needs a non-empty verify.${key}`);
    }
  }
  return config;
}
