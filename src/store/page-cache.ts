import type { ListQuery, Page } from './list-query.js';
import { StampedCache } from './stamped-cache.js';

/**
 * List pages, kept until the next commit anywhere (see StampedCache). A page is keyed by everything
 * its query holds (filters and their values, order, position, limit, owner), so only the same request
 * meets it again. Bounded by the records its pages hold in all (`maxRecords`, the record cache's bound:
 * a page may hold up to 100, and its representation is kept with it).
 *
 * Cached pages are shared by every request that asks for them until the next commit, so callers
 * must treat them as read-only (they are frozen to make that so).
 */
export class PageCache {
  private readonly cache: StampedCache<Page>;

  constructor(maxRecords = 10_000) {
    this.cache = new StampedCache(maxRecords, (page) => page.records.length);
  }

  /** The page of `query` cached under `stamp`, or undefined (then read it and `set` it under the same stamp). */
  get(resource: string, query: ListQuery, stamp: number): Page | undefined {
    return this.cache.get(key(resource, query), stamp);
  }

  /** Keeps a page read under `stamp`; one read under an older stamp is not kept. */
  set(resource: string, query: ListQuery, stamp: number, page: Page): void {
    for (const record of page.records) Object.freeze(Object.freeze(record).data);
    Object.freeze(page.records);
    this.cache.set(key(resource, query), stamp, Object.freeze(page));
  }
}

// Resource names are identifiers (no spaces); JSON keeps values of different types apart ("1" and 1).
function key(resource: string, query: ListQuery): string {
  return `${resource} ${JSON.stringify(query)}`;
}
