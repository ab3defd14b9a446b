import type { ListQuery, Page } from './list-query.js';

/**
 * List pages, kept under RecordCache's rule: only while the database is known not to have changed
 * since. Every entry belongs to one commit stamp (Engine.commitStamp) and the first lookup under
 * another stamp drops them all, so a page is never older than the last commit it could have seen.
 * A page is keyed by everything its query holds (filters and their values, order, position, limit,
 * owner), so only the same request meets it again. Bounded by `maxPages`, oldest dropped first.
 *
 * Cached pages are shared by every request that asks for them until the next commit, so callers
 * must treat them as read-only (they are frozen to make that so).
 */
export class PageCache {
  private stamp: number | undefined;
  private readonly pages = new Map<string, Page>();

  constructor(private readonly maxPages = 1_000) {}

  /** The page of `query` cached under `stamp`, or undefined (then read it and `set` it under the same stamp). */
  get(resource: string, query: ListQuery, stamp: number): Page | undefined {
    if (stamp !== this.stamp) {
      this.pages.clear();
      this.stamp = stamp;
      return undefined;
    }
    return this.pages.get(key(resource, query));
  }

  /** Keeps a page read under `stamp`; one read under an older stamp is not kept. */
  set(resource: string, query: ListQuery, stamp: number, page: Page): void {
    if (stamp !== this.stamp) return;
    if (this.pages.size >= this.maxPages) this.pages.delete(this.pages.keys().next().value!);
    for (const record of page.records) Object.freeze(Object.freeze(record).data);
    Object.freeze(page.records);
    this.pages.set(key(resource, query), Object.freeze(page));
  }
}

// Resource names are identifiers (no spaces); JSON keeps values of different types apart ("1" and 1).
function key(resource: string, query: ListQuery): string {
  return `${resource} ${JSON.stringify(query)}`;
}
