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
 *
 * A page is kept only when its query comes a second time while still among the `maxSeen` queries
 * asked last. Requests that never repeat (a filter value or search term from user input, a new one
 * each time) would otherwise pass every page through the cache: each one, its HAL and its JSON
 * outlive the young generation and are collected by full collections of the old one, ~20 KB a
 * request, which on a 1M-row list under load paused the event loop 5-16 ms every second.
 */
export class PageCache {
  private readonly cache: StampedCache<Page>;
  private readonly seen = new Set<string>();

  constructor(
    maxRecords = 10_000,
    private readonly maxSeen = 4_096,
  ) {
    this.cache = new StampedCache(maxRecords, (page) => page.records.length);
  }

  /** The page cached under `key` (pageKey) and `stamp`, or undefined (then read it and `set` it under the same key and stamp). */
  get(key: string, stamp: number): Page | undefined {
    return this.cache.get(key, stamp);
  }

  /**
   * Keeps a page read under `stamp` if its query was asked for lately (see the class); one read
   * under an older stamp is not kept.
   */
  set(key: string, stamp: number, page: Page): void {
    if (!this.seen.delete(key)) {
      this.seen.add(key);
      // A Set iterates in insertion order: the first key is the one asked for longest ago.
      if (this.seen.size > this.maxSeen) this.seen.delete(this.seen.values().next().value!);
      return;
    }
    this.seen.add(key);
    for (const record of page.records) Object.freeze(Object.freeze(record).data);
    Object.freeze(page.records);
    this.cache.set(key, stamp, Object.freeze(page));
  }
}

/**
 * The key of a resource's list query in a PageCache: everything the query holds, so only the same
 * request meets the page again. Made once per request, for its lookup and, on a miss, its `set`.
 */
export function pageKey(resource: string, query: ListQuery): string {
  // Resource names are identifiers (no spaces); JSON keeps values of different types apart ("1" and 1).
  return `${resource} ${JSON.stringify(query)}`;
}
