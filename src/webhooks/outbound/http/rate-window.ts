import { parseDurationMs } from '../../../config/sizes.js';

/** The shortest and longest window of an endpoint's rate limit. */
export const MIN_WINDOW_MS = 1000;
export const MAX_WINDOW_MS = 86_400_000;

/** A rate-limit window (`1s`, `1m`, `1h`, `1d`, `1500ms`) in milliseconds, or why it is not one. */
export function parseWindow(value: unknown): number | string {
  const detail = 'required: a duration from 1s to 1d, such as "1s", "10s", "1m" or "1h"';
  if (typeof value !== 'string' || value.length > 20) return detail;
  let ms: number;
  try {
    ms = parseDurationMs(value);
  } catch {
    return detail;
  }
  return ms >= MIN_WINDOW_MS && ms <= MAX_WINDOW_MS ? ms : detail;
}

/** Milliseconds as the shortest duration text that says them exactly (`60000` → `1m`), the form the API shows. */
export function windowText(ms: number): string {
  for (const [unit, size] of [['d', 86_400_000], ['h', 3_600_000], ['m', 60_000], ['s', 1000]] as const) {
    if (ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}
