import { createHash } from 'node:crypto';
import type pg from 'pg';
import { toPlain, type StoredRecord } from '../../core/record.js';
import type { ResourceDefinition } from '../../core/resource.js';
import { claimLost, type IdempotencyCompletion } from '../idempotency.js';
import { changeEvent, recordColumnNames, recordColumns, type EventRow } from '../records.js';
import type { RecordToWrite, Row, RowWrite } from '../statements.js';
import { pgCodec, pgValueType } from './postgres-codec.js';
import type { AppendAnnouncer } from './postgres-announcer.js';
import { LOCK } from './postgres-locks.js';
import { PostgresStatements } from './postgres-statements.js';
import { explainWriteError, RetryWrite } from './postgres-transaction.js';

/*
 * A record write as ONE statement on the pool: the record's INSERT, UPDATE or DELETE, its event
 * and the Idempotency-Key's completion are data-modifying CTEs of one statement, which PostgreSQL
 * runs as its own transaction (autocommit): all of it commits, durably, before the answer comes
 * back, or none of it. One round trip where BEGIN, the statements and COMMIT took four or five.
 *
 * - The event horizon (postgres-events.ts) holds: the event's INSERT selects from the CTE that
 *   takes the shared advisory lock, so the lock is held before `seq` is drawn and until commit.
 *   Other nodes hear of the append after commit (postgres-announcer.ts).
 * - An update or delete applies only if the row is still the one the decision was made on (same
 *   `_version` and `_gen`); otherwise nothing is written and the caller decides again on the row
 *   locked (the shared flow in a transaction). Two nodes on one If-Match: one statement matches,
 *   the other waits for its row lock, re-checks the row, matches nothing, and is decided again: 412.
 * - With an Idempotency-Key the claim row is locked first (`c`) and the record is written only if
 *   the claim is still this request's, then marked applied from the written row (`m`): a claim
 *   taken over writes nothing (claimLost), and a written record always marks its key.
 * - The event's data is the JSON JS makes of the record as PostgreSQL returns it (see `stored`);
 *   for an integer id the sequence draws, it is spliced in by SQL as the first member (toPlain
 *   puts `id` first), so the id need not be drawn in a round trip of its own.
 */

/** What a single-statement write did: the row as written, or `lost` when the row was not the one read (decide again, locked). */
export type SingleWriteResult = { row: Row } | 'lost';

/** A lone UTF-16 surrogate: pg sends it as U+FFFD, so the stored text would differ from the event's JSON. */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Whether a write of `data` can run as one statement with exactly the shared flow's answers. Not
 * when it sets a reference: the flow checks references (existence, owner rules) before writing, in
 * field order, which one statement's foreign keys would not reproduce; those run in a transaction.
 */
export function fitsOneStatement(resource: ResourceDefinition, data: Record<string, unknown>): boolean {
  for (const f of resource.fields) {
    const value = data[f.name];
    if (value === null || value === undefined) continue;
    if (f.type === 'reference') return false;
    if (typeof value === 'string' && LONE_SURROGATE.test(value)) return false;
  }
  return true;
}

/**
 * The record as reading its row back gives it (rowToRecord of the stored columns): every field, in
 * field order, absent ones null. JSON columns keep their text exactly, so their values are the ones written.
 */
function stored(resource: ResourceDefinition, record: RecordToWrite, id: StoredRecord['id']): StoredRecord {
  const data: Record<string, unknown> = {};
  for (const f of resource.fields) data[f.name] = record.data[f.name] ?? null;
  return { id, version: record.version, gen: record.gen, createdAt: record.createdAt, updatedAt: record.updatedAt, owner: record.owner ?? null, data };
}

const q = (name: string) => `"${name}"`;

/** Builds one statement's text and values together, numbering the parameters. */
class Statement {
  readonly values: unknown[] = [];
  param(value: unknown, cast?: string): string {
    this.values.push(value);
    return cast ? `$${this.values.length}::${cast}` : `$${this.values.length}`;
  }
}

/** Names of prepared statements by text: each text is parsed and planned once per connection. */
const names = new Map<string, string>();

function nameOf(text: string): string {
  let name = names.get(text);
  if (!name) {
    name = `rw_w_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    // Bounded: texts vary only by resource, kind of write, and whether an id is given and a key completed.
    if (names.size < 10_000) names.set(text, name);
  }
  return name;
}

/** Runs record writes as single statements on the pool (see the comment at the top). */
export class SingleStatementWriter {
  private readonly statements: PostgresStatements;

  constructor(private readonly pool: pg.Pool, private readonly schemaKey: number, private readonly announcer: AppendAnnouncer) {
    this.statements = new PostgresStatements(pool);
  }

  /** Creates `record` (its id drawn by the sequence when absent); `lost` when its id was taken meanwhile. */
  async insert(resource: ResourceDefinition, record: RecordToWrite, now: string, completion?: IdempotencyCompletion): Promise<SingleWriteResult> {
    const s = new Statement();
    const cols = recordColumns(resource, record, pgCodec);
    const columns: string[] = [];
    const values: string[] = [];
    // Reference columns are left out, so they default to null (a write that sets one does not come
    // here: fitsOneStatement), and their cast would need their target's id type. Every other column is
    // sent, null or not, so a resource's INSERT has one text whatever a client leaves out.
    for (const [name, value] of Object.entries(cols)) {
      const field = resource.fields.find((f) => f.name === name);
      if (field?.type === 'reference' || (name === 'id' && value === undefined)) continue;
      columns.push(q(name));
      values.push(s.param(value ?? null, field ? pgValueType(field) : name === '_version' || (name === 'id' && resource.idType === 'integer') ? 'bigint' : 'text'));
    }
    const claim = completion ? this.claim(s, completion) : undefined;
    const write = `INSERT INTO ${q(resource.name)} (${columns.join(', ')}) SELECT ${values.join(', ')}${claim ? ' FROM c' : ''} RETURNING ${returning(resource)}`;
    const drawn = record.id === undefined;
    const event = changeEvent(resource, 'created', stored(resource, record, drawn ? 0 : record.id!), now);
    // `{"id":0` is the start of the JSON of a record whose id is 0: the drawn id replaces it.
    const data = drawn ? `'{"id":' || r.id || ${s.param(event.data.slice('{"id":0'.length))}` : s.param(event.data);
    return this.run(s, { resource, how: 'insert', record }, write, event, data, 'created', completion, claim);
  }

  /** Updates `current` to `next` if the row is still `current`; `lost` if it is not. */
  async update(resource: ResourceDefinition, current: StoredRecord, next: RecordToWrite, now: string, completion?: IdempotencyCompletion): Promise<SingleWriteResult> {
    const s = new Statement();
    const sets: string[] = [];
    for (const [name, value] of Object.entries(recordColumns(resource, next, pgCodec))) if (name !== 'id') sets.push(`${q(name)} = ${s.param(value)}`);
    const claim = completion ? this.claim(s, completion) : undefined;
    const write = `UPDATE ${q(resource.name)} SET ${sets.join(', ')} WHERE ${this.same(s, current)}${claim ? ' AND EXISTS (SELECT 1 FROM c)' : ''} RETURNING ${returning(resource)}`;
    const event = changeEvent(resource, 'updated', stored(resource, next, current.id), now);
    return this.run(s, { resource, how: 'update', record: next }, write, event, s.param(event.data), 'updated', completion, claim);
  }

  /** Deletes `current` if the row is still it; `lost` if it is not. */
  async delete(resource: ResourceDefinition, current: StoredRecord, now: string, completion?: IdempotencyCompletion): Promise<SingleWriteResult> {
    const s = new Statement();
    const claim = completion ? this.claim(s, completion) : undefined;
    const write = `DELETE FROM ${q(resource.name)} WHERE ${this.same(s, current)}${claim ? ' AND EXISTS (SELECT 1 FROM c)' : ''} RETURNING id`;
    const event = changeEvent(resource, 'deleted', current, now);
    return this.run(s, { resource, how: 'delete', record: current }, write, event, s.param(event.data), 'deleted', completion, claim);
  }

  /** The row is the one read: same id, version and generation. */
  private same(s: Statement, current: StoredRecord): string {
    return `id = ${s.param(current.id)} AND _version = ${s.param(current.version)} AND _gen = ${s.param(current.gen)}`;
  }

  /** The parameters naming the claim (the CTEs `c` and `m` of `run` use them). */
  private claim(s: Statement, c: IdempotencyCompletion): { scope: string; key: string; claim: string } {
    return { scope: s.param(c.scope), key: s.param(c.key), claim: s.param(c.claimId) };
  }

  private async run(
    s: Statement,
    attempt: RowWrite,
    write: string,
    e: EventRow,
    data: string,
    outcome: 'created' | 'updated' | 'deleted',
    completion: IdempotencyCompletion | undefined,
    claim: { scope: string; key: string; claim: string } | undefined,
  ): Promise<SingleWriteResult> {
    const ctes: string[] = [];
    if (claim) ctes.push(`c AS (SELECT 1 FROM _rw_idempotency WHERE scope = ${claim.scope} AND key = ${claim.key} AND claim_id = ${claim.claim} AND state = 'in-flight' FOR UPDATE)`);
    ctes.push(`r AS (${write})`);
    if (claim) {
      const applied = `json_build_object('resource', ${s.param(attempt.resource.name, 'text')}, 'recordId', r.id, 'outcome', ${s.param(outcome, 'text')})::text`;
      ctes.push(`m AS (UPDATE _rw_idempotency SET state = 'applied', applied = ${applied}, expires_at = ${s.param(completion!.expiresAt)} FROM r WHERE scope = ${claim.scope} AND key = ${claim.key} AND claim_id = ${claim.claim})`);
    }
    ctes.push(
      `l AS (SELECT pg_advisory_xact_lock_shared(${s.param(LOCK.events)}, ${s.param(this.schemaKey)}))`,
      `e AS (INSERT INTO _rw_events (id, type, resource, record_id, data, created_at, owner) SELECT ${s.param(e.id)}, ${s.param(e.type)}, ${s.param(e.resource)}, r.id::text, ${data}, ${s.param(e.created_at)}, ${s.param(e.owner)} FROM r, l)`,
    );
    const select = claim ? 'SELECT (SELECT count(*) FROM c)::int AS _rw_claims, r.* FROM (VALUES (1)) AS one (x) LEFT JOIN r ON true' : 'SELECT * FROM r';
    const text = `WITH ${ctes.join(', ')} ${select}`;
    let rows: Row[];
    try {
      rows = (await this.pool.query({ name: nameOf(text), text, values: s.values })).rows;
    } catch (err) {
      const explained = await explainWriteError(err, attempt, this.statements);
      // The primary key: someone created this id first. Decided again, locked, it is seen.
      if (explained instanceof RetryWrite) return 'lost';
      throw explained;
    }
    const [row] = rows;
    if (claim && row._rw_claims === 0) throw claimLost(completion!);
    if (!row || row.id === null) return 'lost';
    this.announcer.announce();
    return { row };
  }
}

/** The columns a write returns: named, not `*`, so a prepared statement survives another node adding a column. */
function returning(resource: ResourceDefinition): string {
  return recordColumnNames(resource).map(q).join(', ');
}
