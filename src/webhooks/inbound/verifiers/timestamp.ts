import { fail, type VerifyResult } from './types.js';

/** Default allowed clock difference in seconds, the value Standard Webhooks and Stripe use. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/**
 * Checks a signed Unix timestamp (seconds, as text) against the clock, in both directions:
 * an old timestamp means a replay, a future one a forged or badly skewed clock.
 * Returns the timestamp in ms, or a failure result.
 */
export function checkTimestamp(
  raw: string,
  nowMs: number,
  toleranceSeconds: number | undefined,
): { ms: number } | VerifyResult {
  if (!/^\d{1,15}$/.test(raw.trim())) return fail('malformed', 'the signed timestamp is not a Unix time in seconds');
  const seconds = Number(raw.trim());
  const tolerance = toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const skew = nowMs / 1000 - seconds;
  if (skew > tolerance) return fail('stale_timestamp', `the signed timestamp is ${Math.round(skew)} s old (tolerance ${tolerance} s)`);
  if (-skew > tolerance) return fail('stale_timestamp', `the signed timestamp is ${Math.round(-skew)} s in the future (tolerance ${tolerance} s)`);
  return { ms: seconds * 1000 };
}
