import type { ListQuery, Page } from './list-query.js';

/**
 * List pages, kept under RecordCache's rule: only while the database is known not to have changed
 * since. Every entry belongs to one commit stamp (Engine.commitStamp) and the first lookup under
 * another stamp drops them all, so a page is never older than the last commit it could have seen.
 * A page is keyed by everything its query holds (filters and their values, order, position, limit,
 * owner), so only the same request meets it again. Bounded by the records its pages hold in all
 * (`maxRecords`, RecordCache's bound: a page may hold up to 100, and its representation is kept with
 * it), oldest pages dropped first.
 *
 * Cached pages are shared by every request that asks for them until the next commit, so callers
 * must treat them as read-only (they are frozen to make that so).
 */
export class PageCache {
  private stamp: number | undefined;
  private readonly pages = new Map<string, Page>();
  private records = 0;

  constructor(private readonly maxRecords = 10_000) {}

  /** The page of `query` cached under `stamp`, or undefined (then read it and `set` it under the same stamp). */
  get(resource: string, query: ListQuery, stamp: number): Page | undefined {
    if (stamp !== this.stamp) {
      this.pages.clear();
      this.records = 0;
      this.stamp = stamp;
      return undefined;
    }
    return this.pages.get(key(resource, query));
  }

  /** Keeps a page read under `stamp`; one read under an older stamp is not kept. */
  set(resource: string, query: ListQuery, stamp: number, page: Page): void {
    const k = key(resource, query);
    if (stamp !== this.stamp || this.pages.has(k)) return;
    for (const [oldest, dropped] of this.pages) {
      if (this.records + page.records.length <= this.maxRecords) break;
      this.pages.delete(oldest);
      this.records -= dropped.records.length;
    }
    for (const record of page.records) Object.freeze(Object.freeze(record).data);
    Object.freeze(page.records);
    this.pages.set(k, Object.freeze(page));
    this.records += page.records.length;
  }
}

// Resource names are identifiers (no spaces); JSON keeps values of different types apart ("1" and 1).
function key(resource: string, query: ListQuery): string {
  return `${resource} ${JSON.stringify(query)}`;
}
