import type { Store } from '../../store/store.js';

/**
 * The position of the newest event a reader can see now (0 for an empty log). The Store offers
 * only "events after a position", so this searches for the last one: doubling, then halving, about
 * two queries per bit of the position (some 40 for a billion events), each one indexed row.
 * A live stream starts here, so it never reads the whole log to find its end.
 */
export async function logEnd(store: Store): Promise<number> {
  const anyAfter = async (position: number) => (await store.listEvents({ after: position, limit: 1 })).length > 0;
  if (!(await anyAfter(0))) return 0;
  // Invariant: an event lies after `below`, none after `atOrAbove`; the last one is then at `atOrAbove`.
  let below = 0;
  let atOrAbove = 1;
  while (await anyAfter(atOrAbove)) {
    below = atOrAbove;
    atOrAbove *= 2;
  }
  while (atOrAbove - below > 1) {
    const mid = Math.floor((below + atOrAbove) / 2);
    if (await anyAfter(mid)) below = mid;
    else atOrAbove = mid;
  }
  return atOrAbove;
}
