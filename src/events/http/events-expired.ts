import type { EventVisibility } from '../../store/event-query.js';
import type { Store } from '../../store/store.js';

/**
 * Why resuming after position `after` would skip events retention pruned, or undefined when it
 * would not: the 410 `events-expired` detail, naming what was pruned, the oldest event kept (that
 * this reader may see) and how to resync. Read after the page it guards: an event pruned in
 * between moves the mark past `after`, so a page that skipped one is never served as complete.
 */
export async function eventsExpired(store: Pick<Store, 'retention' | 'listEvents'>, after: number, visible: EventVisibility | undefined, resync: string): Promise<string | undefined> {
  const pruned = await store.retention.eventsPrunedThrough();
  if (!pruned || after >= pruned.seq) return undefined;
  const [oldest] = await store.listEvents({ after: pruned.seq, limit: 1, visible });
  const kept = oldest ? `the oldest event kept is ${oldest.id} (written ${oldest.createdAt})` : 'no event you can read is kept yet';
  return `events up to position ${pruned.seq} (written up to ${pruned.at}) were pruned by retention (events.retention), past this resume point; ${kept}. ${resync}`;
}

/** Milliseconds since the epoch in a UUIDv7-based id (`evt_` + 32 hex digits): when it was drawn. */
export function eventIdTime(id: string): number {
  return parseInt(id.slice(4, 16), 16);
}
