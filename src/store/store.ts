import type { EventRecord } from '../core/events.js';
import type { EventQuery, EventVisibility } from './event-query.js';
import type { RecordId, StoredRecord } from '../core/record.js';
import type { ResourceDefinition } from '../core/resource.js';
import type { ListQuery, Page, ReferencingQuery } from './list-query.js';
import type { IdempotencyEntry, IdempotencyClaim, IdempotencyCompletion } from './idempotency.js';
import type { ImportOptions, ImportSet } from './import-records.js';
import type { HitCounter } from './hit-counter.js';
import type { Inbox } from './inbox.js';
import type { Outbox } from './outbox.js';
import type { StorageWatch } from './storage-watch.js';
import type { Retention } from './retention/retention.js';
import type { StoreSize } from './store-size.js';

/** What a `mutate` decider wants done with the record it was shown. */
export type Decision =
  | { put: Record<string, unknown> }
  | { delete: true }
  | { keep: true };

/**
 * Decides, from the current record (undefined when there is none), what to write. It runs inside
 * the write transaction with the record locked, or on a committed read whose write then applies
 * only if the record is still that one (else it is asked again, locked), so checks it makes
 * (If-Match, patches) are atomic. It must depend on nothing but `current`.
 * It may throw a DomainError to abort the write.
 */
export type Decide = (current: StoredRecord | undefined) => Decision;

/** What a `mutate` did. `unchanged` means the decision was to keep, or the data was identical. */
export interface Mutation {
  outcome: 'created' | 'updated' | 'deleted' | 'unchanged';
  /** The record after the change (before it, for a delete). */
  record?: StoredRecord;
}

/**
 * What a writer may read of a resource (by name): every record (`true`), none (`false`), or only
 * the records this subject owns (a string, under an `owner` read rule).
 */
export type ReadableRecords = (resource: string) => boolean | string;

/** Who is writing: recorded as owner on create and on events. */
export interface WriteOptions {
  owner?: string | null;
  /**
   * What the writer may read, so that a refused write tells it nothing more: a unique clash names
   * the record holding the value only if the writer may read that record, and a reference the write
   * sets (or changes) to a record it may not read is answered as one to a missing record (422), or,
   * when it may read none of the target resource, refused (`reference-forbidden`) whether or not the
   * record exists. Unset: the writer may read everything (the server's own writes, such as webhook actions).
   */
  readable?: ReadableRecords;
  /**
   * The Idempotency-Key claim this write completes: the key is marked applied (with the record and
   * outcome) in the write's own transaction, so a crash can never leave the write without it. If
   * the claim was taken over meanwhile the write is refused (DomainError `idempotency-in-flight`).
   */
  idempotency?: IdempotencyCompletion;
  /**
   * A delete also deletes the records that reference the deleted one through these fields, and
   * theirs in turn, each with its event, in the same transaction (json-server deletes dependents).
   * Without it a referenced record cannot be deleted (`reference-conflict`).
   */
  cascade?: Dependents;
}

/** The fields of other resources whose records go with a deleted record of `resource` (WriteOptions.cascade). */
export type Dependents = (resource: ResourceDefinition) => ReadonlyArray<{ resource: ResourceDefinition; field: string }>;

/** One write of a batch: a POST's insert, or a PUT, PATCH or DELETE's mutate (as Store.insert and Store.mutate take them). */
export type BatchOp =
  | { kind: 'insert'; resource: ResourceDefinition; data: Record<string, unknown>; options: WriteOptions }
  | { kind: 'mutate'; resource: ResourceDefinition; id: RecordId; decide: Decide; options: WriteOptions };

/**
 * One item of a batch: a synchronous function of what the items before it did (their mutations, in
 * order) that says what this one writes. It runs inside the batch's transaction (SQLite's group
 * commit runs flows synchronously, so nothing may be awaited there), and may throw a DomainError
 * (an access check, a validation after references to earlier results were substituted) to abort the batch.
 */
export type BatchStep = (earlier: readonly Mutation[]) => BatchOp;

/** The response stored under a batch's Idempotency-Key (the same shape the Idempotency-Key hooks store). */
export type StoredResponse = NonNullable<IdempotencyEntry['response']>;

/** Options of Store.batch. */
export interface BatchOptions {
  /**
   * The batch request's Idempotency-Key claim and the response to store under it: the key is
   * completed with that response in the batch's own transaction, so a committed batch is never
   * applied twice, even if the process dies before answering. `response` is called once, with
   * every item's result, inside the transaction: it must be synchronous and may not fail.
   */
  idempotency?: { completion: IdempotencyCompletion; response: (results: readonly Mutation[]) => StoredResponse };
}

/** The result of bringing the database schema in line with the config. */
export interface SyncReport {
  applied: string[];
  /** What destructive changes (allowed by `allowDestructiveMigrations`) deleted, in words: logged as warnings. */
  destructive: string[];
  /** Things present in the database that the config no longer declares, left untouched. */
  notes: string[];
}

/**
 * The one storage interface. Every engine (`store/sqlite`, `store/postgres`) implements it with the
 * same semantics: every change writes its event in the same transaction, and a returned promise
 * resolves only once the change is durably committed.
 */
export interface Store {
  /** Inbound webhook deliveries, de-duplicated per source, and their processing state. */
  readonly inbox: Inbox;
  /** Outbound webhooks: endpoints, and the deliveries derived for them from the event log. */
  readonly outbox: Outbox;
  /** Bounded growth: pruning every log in short batches, and how far the event log is pruned. */
  readonly retention: Retention;
  /**
   * Calls `listener` whenever new events may be in the log: after this process commits a write
   * that appended events and, on a shared database, when another node did (it may be called when
   * nothing is new; readers then find nothing). Returns the function that stops the calls.
   */
  onEventsAppended(listener: () => void): () => void;

  /** Creates or extends tables and indexes for the resources; refuses destructive changes unless allowed. */
  sync(resources: ResourceDefinition[], options: { allowDestructive: boolean }): Promise<SyncReport>;

  get(resource: ResourceDefinition, id: RecordId): Promise<StoredRecord | undefined>;
  list(resource: ResourceDefinition, query: ListQuery): Promise<Page>;
  /**
   * The records of `resource` whose reference `field` holds one of `values`: at most `perValue + 1`
   * per value (the first by id, so a caller can tell that more exist), ordered by that value then id,
   * in one query. With `owner`, only that subject's records.
   */
  listReferencing(resource: ResourceDefinition, query: ReferencingQuery): Promise<StoredRecord[]>;

  /** Creates a record with a server-chosen id (POST). */
  insert(resource: ResourceDefinition, data: Record<string, unknown>, options?: WriteOptions): Promise<StoredRecord>;
  /** Creates, replaces or deletes the record at a known id, as `decide` says, atomically (PUT, PATCH, DELETE). */
  mutate(resource: ResourceDefinition, id: RecordId, decide: Decide, options?: WriteOptions): Promise<Mutation>;
  /**
   * Runs writes as one transaction, in order: all of them commit, each with its event, or none
   * (then it rejects with BatchItemError naming the item that failed and its own error). Each step
   * is called with the results of the steps before it, inside the transaction (see BatchStep).
   */
  batch(steps: readonly BatchStep[], options?: BatchOptions): Promise<Mutation[]>;

  /**
   * Loads records that keep their ids (a bulk import), in one transaction: all of them or none.
   * `sets` come referenced resources first. Resources that already hold records are refused
   * (ImportRefusedError) unless `replace` says to empty them first. Integer id sequences continue
   * after the highest id loaded. No events are written: a load is not a stream of changes.
   */
  importRecords(sets: ImportSet[], options: ImportOptions): Promise<void>;

  /** The event log, oldest first, after a position; with `visible`, only what that reader may see. */
  listEvents(query: EventQuery): Promise<EventRecord[]>;
  /** One event by its public id; undefined when there is none, or `visible` leaves it out. */
  getEvent(id: string, visible?: EventVisibility): Promise<EventRecord | undefined>;

  /** Claims an Idempotency-Key (taking over one whose lease ran out), or returns what is already stored under it. */
  claimIdempotencyKey(claim: IdempotencyClaim): Promise<{ claimed: true } | { claimed: false; entry: IdempotencyEntry }>;
  /**
   * Stores the response for a key this claim still holds, kept until `expiresAt` (the claim itself
   * is only a short lease), or releases the claim when `response` is undefined; a key a write has
   * already applied is never released.
   */
  completeIdempotencyKey(claim: Pick<IdempotencyClaim, 'scope' | 'key' | 'id'>, response: IdempotencyEntry['response'] | undefined, expiresAt?: string): Promise<void>;

  /**
   * Small internal documents keyed by (kind, id): API keys, OAuth clients, signing keys, revoked
   * token ids and the like. `expiresAt` (ISO) makes a document disappear after that time.
   */
  putDocument(kind: string, id: string, data: Record<string, unknown>, expiresAt?: string): Promise<void>;
  /** Stores a document (never expiring) unless (kind, id) already has one; resolves the stored one, so racing nodes agree. */
  ensureDocument(kind: string, id: string, data: Record<string, unknown>): Promise<Record<string, unknown>>;
  getDocument(kind: string, id: string): Promise<Record<string, unknown> | undefined>;
  listDocuments(kind: string): Promise<Array<{ id: string; data: Record<string, unknown> }>>;
  /** Which of `ids` name a live document of `kind` (a batch of lookups in a query or a few, for periodic checks of many). */
  liveDocumentIds(kind: string, ids: Iterable<string>): Promise<Set<string>>;
  /** Deletes a document; resolves true when one was there. */
  deleteDocument(kind: string, id: string): Promise<boolean>;

  /**
   * Checks that the database answers a trivial query now (readiness probes); rejects with
   * StoreUnavailableError when it cannot be reached.
   */
  ping(): Promise<void>;

  /**
   * Whether writes commit, as the last write found: `storage.full` is set from a write refused for
   * lack of space (StoreFullError) until one commits again, and its listeners hear each change once.
   */
  readonly storage: StorageWatch;

  /**
   * A small durable write of the store's own (one row, overwritten), so that whether storage has
   * room again is known without waiting for a client's write; rejects with StoreFullError while it has none.
   */
  probeStorage(): Promise<void>;

  /**
   * Present where the engine commits writes in batches (SQLite's group commit): calls `listener`
   * with the number of writes in each batch it commits. Returns the function that stops the calls.
   * Observers (metrics) live above the store; the store itself knows nothing of them.
   */
  readonly onCommitBatch?: (listener: (size: number) => void) => () => void;

  /**
   * Present where every node sharing the database can share rate-limit counts (PostgreSQL): a
   * counter in the database itself. Rejects with StoreUnavailableError when the database is away.
   */
  readonly hitCounter?: HitCounter;

  /**
   * Present where the engine can measure the database cheaply (catalog and file sizes, two index
   * lookups; never a scan): its size and the event log's. Callers that ask often cache the answer.
   */
  readonly size?: () => Promise<StoreSize>;

  close(): Promise<void>;
}
