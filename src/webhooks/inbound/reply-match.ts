/** Lower-case words separated by single spaces, padded with one space each side: ` who is homer `. */
export function wordsOf(text: string): string {
  const words = text.normalize('NFKC').toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  return words.length ? ` ${words.join(' ')} ` : '';
}

/**
 * How much of a text is searched for a mention: the longest text message carriers deliver (Twilio
 * joins at most 10 segments of 160 characters). Each candidate is searched for in the text, so a
 * body of a megabyte against thousands of records cost tens of seconds; this keeps it milliseconds.
 */
export const MAX_MENTION_TEXT = 1600;

/**
 * The candidate whose value the text mentions as whole words, ignoring case, punctuation and
 * surrounding words ("who is homer?" mentions "Homer"); the longest mention wins, so "Homer
 * Simpson" beats "Homer". Undefined when none is mentioned. Only the first MAX_MENTION_TEXT
 * characters of the text are searched.
 */
export function findMention<T>(text: string, candidates: Iterable<{ value: string; item: T }>): T | undefined {
  const haystack = wordsOf(text.slice(0, MAX_MENTION_TEXT));
  if (!haystack) return undefined;
  let best: { length: number; item: T } | undefined;
  for (const c of candidates) {
    const needle = wordsOf(c.value);
    if (!needle || (best && needle.length <= best.length)) continue;
    if (haystack.includes(needle)) best = { length: needle.length, item: c.item };
  }
  return best?.item;
}

/** Fills `{field}` placeholders from `values`; absent or null values become empty text. */
export function renderTemplate(template: string, values: Record<string, unknown>): string {
  return template.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_m, name: string) => {
    const v = values[name];
    if (v === null || v === undefined) return '';
    return typeof v === 'object' ? JSON.stringify(v) : String(v);
  });
}
