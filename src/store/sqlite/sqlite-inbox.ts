import type { Statement } from 'better-sqlite3';
import type { StoredRecord } from '../../core/record.js';
import type { ResourceDefinition } from '../../core/resource.js';
import { applyAttempt, toDelivery, type AttemptOutcome, type Delivery, type EffectResult, type DeliveryStatus, type Inbox, type NewDelivery } from '../inbox.js';
import { newEventId, type changeEvent } from '../records.js';
import type { GroupCommit } from './sqlite-group-commit.js';

/** The inbox table; created with the engine's own tables. */
export const SQLITE_INBOX_DDL = `
CREATE TABLE IF NOT EXISTS _rw_inbox (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, source TEXT NOT NULL, event_id TEXT NOT NULL,
  received_at TEXT NOT NULL, headers TEXT NOT NULL, content_type TEXT NOT NULL, body BLOB NOT NULL,
  verification TEXT NOT NULL, status TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, next_attempt_at TEXT,
  last_error TEXT, response TEXT NOT NULL, attempt_log TEXT NOT NULL DEFAULT '[]', UNIQUE (source, event_id));
CREATE INDEX IF NOT EXISTS _rw_inbox_due ON _rw_inbox (status, next_attempt_at);
CREATE INDEX IF NOT EXISTS _rw_inbox_source ON _rw_inbox (source, status, seq);
`;

/** What the inbox borrows from the SQLite store: its statements, its group commit and its record writes. */
export interface SqliteInboxDeps {
  writer: GroupCommit;
  stmt(sql: string): Statement;
  /** Inserts a record and its change event (inside the running write job). */
  insertRecord(resource: ResourceDefinition, data: Record<string, unknown>, now: string): StoredRecord;
  appendEvent(event: ReturnType<typeof changeEvent>): void;
}

/**
 * The inbox on SQLite. A delivery is one `INSERT … ON CONFLICT DO NOTHING` queued on the store's
 * group commit, so thousands of deliveries share one fsync and each is durable before its 2xx.
 */
export class SqliteInbox implements Inbox {
  constructor(private readonly deps: SqliteInboxDeps) {}

  receive(d: NewDelivery): Promise<{ created: boolean; delivery: Delivery }> {
    return this.deps.writer.run(() => {
      const row = this.deps
        .stmt(
          `INSERT INTO _rw_inbox (id, source, event_id, received_at, headers, content_type, body, verification, status, next_attempt_at, last_error, response)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (source, event_id) DO NOTHING RETURNING seq`,
        )
        .get(d.id, d.source, d.eventId, d.receivedAt, JSON.stringify(d.headers), d.contentType, d.body, JSON.stringify(d.verification), d.status, d.nextAttemptAt, d.lastError, JSON.stringify(d.response)) as
        | { seq: number }
        | undefined;
      if (row) return { created: true, delivery: { ...d, seq: row.seq, attempts: 0, attemptLog: [] } };
      return { created: false, delivery: this.byEventId(d.source, d.eventId)! };
    });
  }

  async findByEventId(source: string, eventId: string): Promise<Delivery | undefined> {
    return this.byEventId(source, eventId);
  }

  async get(source: string, id: string): Promise<Delivery | undefined> {
    const row = this.deps.stmt('SELECT * FROM _rw_inbox WHERE source = ? AND id = ?').get(source, id);
    return row ? toDelivery(row) : undefined;
  }

  async list(source: string, query: { after?: number; limit: number; status?: DeliveryStatus }): Promise<Delivery[]> {
    const rows = query.status
      ? this.deps.stmt('SELECT * FROM _rw_inbox WHERE source = ? AND status = ? AND seq > ? ORDER BY seq LIMIT ?').all(source, query.status, query.after ?? 0, query.limit)
      : this.deps.stmt('SELECT * FROM _rw_inbox WHERE source = ? AND seq > ? ORDER BY seq LIMIT ?').all(source, query.after ?? 0, query.limit);
    return rows.map(toDelivery);
  }

  async due(limit: number, now?: string): Promise<Delivery[]> {
    const rows = now
      ? this.deps.stmt(`SELECT * FROM _rw_inbox WHERE status = 'received' AND next_attempt_at <= ? ORDER BY next_attempt_at, seq LIMIT ?`).all(now, limit)
      : this.deps.stmt(`SELECT * FROM _rw_inbox WHERE status = 'received' ORDER BY seq LIMIT ?`).all(limit);
    return rows.map(toDelivery);
  }

  settle(id: string, outcome: AttemptOutcome, at: string): Promise<Delivery | undefined> {
    return this.deps.writer.run(() => {
      const row = this.deps.stmt('SELECT * FROM _rw_inbox WHERE id = ?').get(id);
      if (!row) return undefined;
      const current = toDelivery(row);
      if (current.attempts !== outcome.expectedAttempts) return undefined;
      const result: EffectResult = { records: [], events: [] };
      // Effects and outcome share this job's savepoint: a failing insert rolls back the whole attempt.
      for (const r of outcome.effects?.records ?? []) {
        const saved = this.deps.insertRecord(r.resource, r.data, at);
        result.records.push(`/${r.resource.name}/${encodeURIComponent(String(saved.id))}`);
      }
      for (const e of outcome.effects?.events ?? []) {
        const event = { id: newEventId(), type: e.type, resource: e.resource, record_id: e.recordId, data: JSON.stringify(e.data), created_at: at, owner: null };
        this.deps.appendEvent(event);
        result.events.push(event.id);
      }
      const next = applyAttempt(current, outcome, at, result);
      this.deps
        .stmt('UPDATE _rw_inbox SET status = ?, attempts = ?, next_attempt_at = ?, last_error = ?, attempt_log = ? WHERE id = ?')
        .run(next.status, next.attempts, next.nextAttemptAt, next.lastError, JSON.stringify(next.attemptLog), id);
      return next;
    });
  }

  private byEventId(source: string, eventId: string): Delivery | undefined {
    const row = this.deps.stmt('SELECT * FROM _rw_inbox WHERE source = ? AND event_id = ?').get(source, eventId);
    return row ? toDelivery(row) : undefined;
  }
}
