import type { CompiledQuery, Kysely, SelectQueryBuilder } from 'kysely';
import type { Engine } from './engine.js';
import type { EventSignal } from './event-signal.js';
import { fixedShapeQuery } from './fixed-shape.js';
import { step, type Flow } from './flow.js';
import { toDelivery, type AttemptOutcome, type Delivery, type DeliveryStatus, type Inbox, type InboxBacklog, type NewDelivery } from './inbox.js';
import { settleDelivery } from './inbox-settle.js';
import type { Statements } from './statements.js';

type Select = SelectQueryBuilder<any, any, any>;

/**
 * The inbox, in the same database as the records on every engine (table `_rw_inbox`). A delivery
 * is one `INSERT … ON CONFLICT DO NOTHING`, durable before it is acknowledged; a redelivery racing
 * the first insert finds it. Attempts are settled by {@link settleDelivery}.
 */
export class SqlInbox implements Inbox {
  constructor(private readonly engine: Engine, private readonly appended: EventSignal) {}

  receive(delivery: NewDelivery): Promise<{ created: boolean; delivery: Delivery }> {
    return this.engine.write((s) => receive(s, delivery));
  }

  findByEventId(source: string, eventId: string): Promise<Delivery | undefined> {
    return this.engine.read((s) => one(s, [source, eventId], (q) => q.where('source', '=', source).where('event_id', '=', eventId)));
  }

  get(source: string, id: string): Promise<Delivery | undefined> {
    return this.engine.read((s) => one(s, [source, id], (q) => q.where('source', '=', source).where('id', '=', id)));
  }

  list(source: string, query: { after?: number; limit: number; status?: DeliveryStatus }): Promise<Delivery[]> {
    return this.engine.read((s) =>
      deliveries(s, (q) => {
        const bySource = q.where('source', '=', source).where('seq', '>', query.after ?? 0);
        return (query.status ? bySource.where('status', '=', query.status) : bySource).orderBy('seq').limit(query.limit);
      }),
    );
  }

  due(limit: number, now?: string): Promise<Delivery[]> {
    return this.engine.read((s) =>
      deliveries(s, (q) => {
        const received = q.where('status', '=', 'received');
        return (now ? received.where('next_attempt_at', '<=', now).orderBy('next_attempt_at') : received).orderBy('seq').limit(limit);
      }),
    );
  }

  async settle(id: string, outcome: AttemptOutcome, at: string): Promise<Delivery | undefined> {
    const settled = await this.engine.transaction((tx) => settleDelivery(tx, id, outcome, at));
    if (settled && outcome.effects?.events?.length) this.appended.fire();
    return settled;
  }

  backlog(): Promise<InboxBacklog[]> {
    return this.engine.read(function* (s): Flow<InboxBacklog[]> {
      const query = s.sql
        .selectFrom('_rw_inbox')
        .where('status', '=', 'received')
        .groupBy('source')
        .select((eb) => ['source', eb.fn.countAll().as('pending'), eb.fn.min('received_at').as('oldest')])
        .compile();
      const rows = yield* step(s.rows(query));
      return rows.map((r: any) => ({ source: r.source, pending: Number(r.pending), oldestReceivedAt: r.oldest }));
    });
  }
}

function* receive(s: Statements, d: NewDelivery): Flow<{ created: boolean; delivery: Delivery }> {
  const row = {
    id: d.id, source: d.source, event_id: d.eventId, received_at: d.receivedAt, headers: JSON.stringify(d.headers), content_type: d.contentType, body: d.body,
    verification: JSON.stringify(d.verification), status: d.status, next_attempt_at: d.nextAttemptAt, last_error: d.lastError, response: JSON.stringify(d.response),
  };
  const [inserted] = yield* step(s.rows(insertQuery(s.sql, row)));
  // Object.assign, not `{ ...d, seq, … }`: V8 takes a slow path for a spread followed by more
  // properties, several µs per delivery.
  if (inserted) return { created: true, delivery: Object.assign({ seq: Number(inserted.seq), attempts: 0, attemptLog: [] }, d) };
  const existing = yield* one(s, [d.source, d.eventId], (q) => q.where('source', '=', d.source).where('event_id', '=', d.eventId));
  return { created: false, delivery: existing! };
}

/** `INSERT … ON CONFLICT (source, event_id) DO NOTHING RETURNING seq` of one delivery row, of a fixed shape: it runs for every delivery. */
function insertQuery(sql: Kysely<any>, row: Record<string, unknown>): CompiledQuery {
  return fixedShapeQuery(sql, 'inbox: insert a delivery', Object.values(row), () =>
    sql.insertInto('_rw_inbox').values(row).onConflict((oc) => oc.columns(['source', 'event_id']).doNothing()).returning('seq'),
  );
}

function* deliveries(s: Statements, select: (inbox: Select) => Select): Flow<Delivery[]> {
  return (yield* step(s.rows(select(s.sql.selectFrom('_rw_inbox').selectAll()).compile()))).map(toDelivery);
}

/** The delivery a unique key finds; none when the engine could not have stored the key. */
function* one(s: Statements, key: string[], select: (inbox: Select) => Select): Flow<Delivery | undefined> {
  if (!s.storable(...key)) return undefined;
  return (yield* deliveries(s, select))[0];
}
