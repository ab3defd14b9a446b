import type { StoredRecord } from '../../../core/record.js';
import { toPlain } from '../../../core/record.js';
import type { Store } from '../../../store/store.js';
import { findMention, renderTemplate } from '../reply-match.js';
import type { ReplyAction } from '../sources.js';

/** How many records a reply looks through at most; a lookup table for SMS replies is small. */
const SCAN_LIMIT = 10_000;
const PAGE = 500;

/**
 * The reply to a text message: the record whose `by` field the text mentions, rendered with the
 * template; when none matches, a helpful answer naming an example value to try.
 */
export async function replyTo(store: Store, action: ReplyAction, text: string): Promise<string> {
  const candidates: Array<{ value: string; item: StoredRecord }> = [];
  let after: { values: unknown[]; backwards: boolean } | undefined;
  while (candidates.length < SCAN_LIMIT) {
    const page = await store.list(action.resource, { filters: [], sort: [], limit: PAGE, after });
    for (const r of page.records) {
      const v = r.data[action.by];
      if (v !== null && v !== undefined) candidates.push({ value: String(v), item: r });
    }
    if (!page.hasMore || !page.records.length) break;
    after = { values: [page.records.at(-1)!.id], backwards: false };
  }
  const match = findMention(text, candidates);
  if (match) return renderTemplate(action.template, toPlain(match));
  const example = candidates[0]?.value;
  const fallback =
    action.fallback ??
    (example ? `Sorry, I don't know "{text}". Try a ${action.by} like {example}.` : `Sorry, I don't know "{text}": there are no ${action.resource.name} yet.`);
  return renderTemplate(fallback, { text: text.trim(), example: example ?? '' });
}
