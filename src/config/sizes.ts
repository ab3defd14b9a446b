const UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };
const SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/** Parses `1mb`, `512kb` or a byte count into bytes. */
export function parseBytes(size: number | string): number {
  if (typeof size === 'number') return size;
  const m = /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?$/i.exec(size.trim());
  if (!m) throw new Error(`not a size: ${size}`);
  return Math.floor(Number(m[1]) * UNITS[(m[2] ?? 'b').toLowerCase()]);
}

/** Parses `24h`, `15m`, `30s`, `7d` into seconds. */
export function parseDuration(text: string): number {
  const m = /^(\d+)\s*(s|m|h|d)$/.exec(text.trim());
  if (!m) throw new Error(`not a duration: ${text}`);
  return Number(m[1]) * SECONDS[m[2]];
}

/** Parses `250ms`, `5s`, `2h` or `7d` into milliseconds (`ms` is for short waits: timeouts, polls, heartbeats). */
export function parseDurationMs(text: string): number {
  const m = /^(\d+)\s*ms$/.exec(text.trim());
  return m ? Number(m[1]) : parseDuration(text) * 1000;
}

/** The JSON Schema of a duration that may also be in milliseconds (`250ms`); see {@link parseDurationMs}. */
export function durationMsSchema(positive = false) {
  const base = durationSchema(positive);
  const ms = positive ? '0*[1-9]\\d{0,9}\\s*ms' : '\\d{1,10}\\s*ms';
  return { type: 'string', pattern: `^(${ms}|${base.pattern.slice(2, -2)})$` };
}

/**
 * The JSON Schema of a duration such as `15m` or `30d`, bounded so that every configured lifetime
 * stays a valid date when added to now (about a century at most: 9 digits of seconds, 7 of minutes,
 * 6 of hours, 4 of days). `positive` refuses zero.
 */
export function durationSchema(positive = false) {
  const amount = (digits: number) => (positive ? `0*[1-9]\\d{0,${digits - 1}}` : `\\d{1,${digits}}`);
  const pattern = `^(${amount(9)}\\s*s|${amount(7)}\\s*m|${amount(6)}\\s*h|${amount(4)}\\s*d)$`;
  return { type: 'string', pattern };
}

/** The JSON Schema of a retention: a duration (`30d`), or `off` to keep everything. */
export function retentionSchema(description: string) {
  return { description, oneOf: [durationSchema(true), { const: 'off' }] };
}

/** Parses a retention (`30d`, or `off`) into milliseconds; null keeps everything. */
export function parseRetention(text: string): number | null {
  return text === 'off' ? null : parseDuration(text) * 1000;
}
