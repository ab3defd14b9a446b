import type pg from 'pg';
import { applyAttempt, toDelivery, type AttemptOutcome, type Delivery, type DeliveryStatus, type EffectResult, type Inbox, type NewDelivery } from '../inbox.js';
import { firstGeneration, newEventId } from '../records.js';
import { PG_TEXT, unstorableText } from './postgres-codec.js';
import { unavailableOr } from './postgres-errors.js';
import type { Writer } from './postgres-transaction.js';

/** The inbox table; created with the engine's own tables. Times are ISO text, compared bytewise. */
export const PG_INBOX_DDL = `
CREATE TABLE IF NOT EXISTS _rw_inbox (
  seq bigserial PRIMARY KEY, id text NOT NULL UNIQUE, source text NOT NULL, event_id text NOT NULL,
  received_at ${PG_TEXT} NOT NULL, headers text NOT NULL, content_type text NOT NULL, body bytea NOT NULL,
  verification text NOT NULL, status text NOT NULL, attempts integer NOT NULL DEFAULT 0, next_attempt_at ${PG_TEXT},
  last_error text, response text NOT NULL, attempt_log text NOT NULL DEFAULT '[]', UNIQUE (source, event_id));
CREATE INDEX IF NOT EXISTS _rw_inbox_due ON _rw_inbox (status, next_attempt_at);
CREATE INDEX IF NOT EXISTS _rw_inbox_source ON _rw_inbox (source, status, seq);
`;

/**
 * The inbox on PostgreSQL, shared by every node. A redelivery racing the first insert waits for it
 * and then finds it (ON CONFLICT DO NOTHING); an attempt locks its row, so two nodes' workers
 * never both run a delivery's actions.
 */
export class PostgresInbox implements Inbox {
  constructor(private readonly pool: pg.Pool, private readonly writer: Writer) {}

  /** A pool query; a lost database becomes StoreUnavailableError (503), as in the rest of the engine. */
  private async query<R extends pg.QueryResultRow = any>(sql: string, params: unknown[]): Promise<pg.QueryResult<R>> {
    try {
      return await this.pool.query<R>(sql, params);
    } catch (err) {
      throw unavailableOr(err);
    }
  }

  async receive(d: NewDelivery): Promise<{ created: boolean; delivery: Delivery }> {
    const { rows } = await this.query<{ seq: number }>(
      `INSERT INTO _rw_inbox (id, source, event_id, received_at, headers, content_type, body, verification, status, next_attempt_at, last_error, response)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT (source, event_id) DO NOTHING RETURNING seq`,
      [d.id, d.source, d.eventId, d.receivedAt, JSON.stringify(d.headers), d.contentType, d.body, JSON.stringify(d.verification), d.status, d.nextAttemptAt, d.lastError, JSON.stringify(d.response)],
    );
    if (rows[0]) return { created: true, delivery: { ...d, seq: Number(rows[0].seq), attempts: 0, attemptLog: [] } };
    return { created: false, delivery: (await this.findByEventId(d.source, d.eventId))! };
  }

  async findByEventId(source: string, eventId: string): Promise<Delivery | undefined> {
    if (unstorableText(source, eventId)) return undefined;
    const { rows } = await this.query('SELECT * FROM _rw_inbox WHERE source = $1 AND event_id = $2', [source, eventId]);
    return rows[0] ? toDelivery(rows[0]) : undefined;
  }

  async get(source: string, id: string): Promise<Delivery | undefined> {
    if (unstorableText(source, id)) return undefined;
    const { rows } = await this.query('SELECT * FROM _rw_inbox WHERE source = $1 AND id = $2', [source, id]);
    return rows[0] ? toDelivery(rows[0]) : undefined;
  }

  async list(source: string, query: { after?: number; limit: number; status?: DeliveryStatus }): Promise<Delivery[]> {
    const { rows } = await this.query(
      'SELECT * FROM _rw_inbox WHERE source = $1 AND seq > $2 AND ($3::text IS NULL OR status = $3) ORDER BY seq LIMIT $4',
      [source, query.after ?? 0, query.status ?? null, query.limit],
    );
    return rows.map(toDelivery);
  }

  async due(limit: number, now?: string): Promise<Delivery[]> {
    const { rows } = now
      ? await this.query(`SELECT * FROM _rw_inbox WHERE status = 'received' AND next_attempt_at <= $1 ORDER BY next_attempt_at, seq LIMIT $2`, [now, limit])
      : await this.query(`SELECT * FROM _rw_inbox WHERE status = 'received' ORDER BY seq LIMIT $1`, [limit]);
    return rows.map(toDelivery);
  }

  settle(id: string, outcome: AttemptOutcome, at: string): Promise<Delivery | undefined> {
    return this.writer.transaction(async (tx) => {
      const { rows } = await tx.query('SELECT * FROM _rw_inbox WHERE id = $1 FOR UPDATE', [id]);
      if (!rows[0]) return undefined;
      const current = toDelivery(rows[0]);
      if (current.attempts !== outcome.expectedAttempts) return undefined;
      const result: EffectResult = { records: [], events: [] };
      for (const r of outcome.effects?.records ?? []) {
        const fresh = firstGeneration(r.resource, r.data, at, null);
        const saved = await tx.write(r.resource, 'insert', fresh, at);
        result.records.push(`/${r.resource.name}/${encodeURIComponent(String(saved.id))}`);
      }
      for (const e of outcome.effects?.events ?? []) {
        const event = { id: newEventId(), type: e.type, resource: e.resource, record_id: e.recordId, data: JSON.stringify(e.data), created_at: at, owner: null };
        await tx.appendEvent(event);
        result.events.push(event.id);
      }
      const next = applyAttempt(current, outcome, at, result);
      await tx.query('UPDATE _rw_inbox SET status = $1, attempts = $2, next_attempt_at = $3, last_error = $4, attempt_log = $5 WHERE id = $6', [
        next.status, next.attempts, next.nextAttemptAt, next.lastError, JSON.stringify(next.attemptLog), id,
      ]);
      return next;
    });
  }
}
