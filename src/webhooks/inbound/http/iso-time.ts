/** The last time formatted, per clock: deliveries arriving in the same millisecond (or signed in the same second) share it. */
interface Memo {
  ms: number;
  text: string;
}

/**
 * A formatter of ms-since-epoch times as ISO 8601 text that remembers its last answer. Formatting
 * a Date costs about a microsecond; under load many deliveries are received within one millisecond
 * and most are signed within the same second, so most calls return the text already made.
 */
export function isoFormatter(): (ms: number) => string {
  const memo: Memo = { ms: Number.NaN, text: '' };
  return (ms) => {
    if (ms !== memo.ms) {
      memo.text = new Date(ms).toISOString();
      memo.ms = ms;
    }
    return memo.text;
  };
}
