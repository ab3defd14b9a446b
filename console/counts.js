// Record counts per collection for the sidebar and the collections home: one cheap request each
// (`limit=1&fields=id&total=true`), kept for half a minute so moving around does not recount.
import { api, token } from './api.js';

/** How long a count is reused, in milliseconds. */
const FRESH_MS = 30_000;
const counts = new Map();
let countedFor;

/** The number of records of `collection` this tab may see, or null when it cannot be read. */
export function countOf(collection) {
  // Another token may see other records: its counts start afresh.
  if (countedFor !== token()) forgetCounts();
  countedFor = token();
  const hit = counts.get(collection);
  if (hit && performance.now() - hit.at < FRESH_MS) return hit.value;
  const value = api('GET', `/${collection}?limit=1&fields=id&total=true`).then((r) => r.body.total ?? null, () => null);
  counts.set(collection, { at: performance.now(), value });
  return value;
}

/** Records a count just seen (an unfiltered list's total) or, with undefined, forgets it after a write. */
export function noteCount(collection, total) {
  if (total === undefined) counts.delete(collection);
  else counts.set(collection, { at: performance.now(), value: Promise.resolve(total) });
}

/** Forgets every count (the token changed: what it may see differs). */
export function forgetCounts() {
  counts.clear();
}
