import { API_KEY_KIND } from '../../src/auth/api-keys.js';
import { OAUTH_CLIENT_KIND } from '../../src/auth/oauth-clients.js';
import type { Store } from '../../src/store/store.js';

/** What changed in the database since the last look: new events, deliveries, keys or clients. */
export interface StateChange {
  events: string[];
  deliveries: string[];
  documents: string[];
}

/**
 * Watches the server's database through the runner's own connection, cheaply: the event log's
 * position (every record change writes an event), each inbox's position, and the number of API
 * keys and OAuth clients.
 */
export class StateProbe {
  private eventSeq = 0;
  private readonly inboxSeq = new Map<string, number>();
  private documents = new Map<string, number>();

  constructor(private readonly store: Store, private readonly sources: string[]) {}

  /** What moved since the last call; `documents` also counts keys and clients (a full listing, so only when asked). */
  async changes(documents = false): Promise<StateChange> {
    const change: StateChange = { events: [], deliveries: [], documents: [] };
    for (;;) {
      const events = await this.store.listEvents({ after: this.eventSeq, limit: 500 });
      if (!events.length) break;
      for (const e of events) change.events.push(`${e.type} ${e.resource}/${e.recordId ?? ''}`);
      this.eventSeq = events[events.length - 1]!.seq;
    }
    for (const source of this.sources) {
      for (;;) {
        const after = this.inboxSeq.get(source) ?? 0;
        const deliveries = await this.store.inbox.list(source, { after, limit: 500 });
        if (!deliveries.length) break;
        for (const d of deliveries) change.deliveries.push(`${source} ${d.id} ${d.status}`);
        this.inboxSeq.set(source, deliveries[deliveries.length - 1]!.seq);
      }
    }
    if (!documents) return change;
    const counts = new Map<string, number>();
    for (const kind of [API_KEY_KIND, OAUTH_CLIENT_KIND]) counts.set(kind, (await this.store.listDocuments(kind)).length);
    for (const [kind, n] of counts) if (n !== (this.documents.get(kind) ?? n)) change.documents.push(`${kind}: ${this.documents.get(kind)} → ${n}`);
    this.documents = counts;
    return change;
  }

  /** True while a delivery waits for its asynchronous actions (whose writes must not be blamed on later requests). */
  async busy(): Promise<boolean> {
    return (await this.store.inbox.due(1, new Date().toISOString())).length > 0;
  }
}

/** True when nothing changed. */
export function unchanged(c: StateChange): boolean {
  return !c.events.length && !c.deliveries.length && !c.documents.length;
}
