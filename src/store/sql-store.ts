import type { EventRecord } from '../core/events.js';
import type { RecordId, StoredRecord } from '../core/record.js';
import type { ResourceDefinition } from '../core/resource.js';
import { deleteDocument, ensureDocument, getDocument, listDocuments, liveDocumentIds, putDocument } from './documents.js';
import type { ClaimResult, Engine } from './engine.js';
import { EventSignal } from './event-signal.js';
import type { HitCounter } from './hit-counter.js';
import { getEvent, listEvents, type EventQuery, type EventVisibility } from './event-query.js';
import { completeIdempotencyKey, type IdempotencyClaim, type IdempotencyEntry } from './idempotency.js';
import { importRecords, type ImportOptions, type ImportSet } from './import-records.js';
import type { Inbox } from './inbox.js';
import type { ListQuery, Page, ReferencingQuery } from './list-query.js';
import { insertRecord, mutateRecord } from './mutate.js';
import type { Outbox } from './outbox.js';
import { PageCache, pageKey } from './page-cache.js';
import { RecordCache } from './record-cache.js';
import { TurnStamp } from './turn-stamp.js';
import { getRecord, listRecords, listReferencing } from './record-reads.js';
import { SqlInbox } from './sql-inbox.js';
import { SqlOutbox } from './sql-outbox.js';
import type { Retention } from './retention/retention.js';
import { SqlRetention } from './retention/sql-retention.js';
import { StorageWatch } from './storage-watch.js';
import { watchedEngine } from './watched-engine.js';
import type { BatchOptions, BatchStep, Decide, Mutation, Store, SyncReport, WriteOptions } from './store.js';
import type { StoreSize } from './store-size.js';
import { seenBy } from './write-errors.js';
import { BatchItemError, runBatch, type BatchProgress } from './batch.js';

/**
 * The Store, once for every engine: each method is a flow written against the engine's
 * statements, which the engine runs as a read, a write or a transaction (see Engine).
 */
export class SqlStore implements Store {
  readonly inbox: Inbox;
  readonly outbox: Outbox;
  readonly retention: Retention;
  private readonly appended = new EventSignal();
  private watching = false;
  /** Hot reads by id skip SQL while nothing has committed since (only where the engine stamps commits). */
  private readonly cache?: RecordCache;
  /** Hot list pages likewise: the same list request between two commits runs its SQL once. */
  private readonly pages?: PageCache;
  /** The commit stamp the caches are checked against, taken once per turn of the event loop. */
  private readonly stamp?: TurnStamp;

  readonly onCommitBatch?: (listener: (size: number) => void) => () => void;
  readonly storage = new StorageWatch();
  readonly hitCounter?: HitCounter;
  readonly size?: () => Promise<StoreSize>;
  private readonly engine: Engine;

  constructor(engine: Engine) {
    // Pruning's deletes free space, so their commits say nothing of whether a write of new data fits: unwatched.
    this.retention = new SqlRetention(engine);
    this.engine = watchedEngine(engine, this.storage);
    engine = this.engine;
    this.onCommitBatch = engine.onCommitBatch?.bind(engine);
    this.hitCounter = engine.hitCounter;
    this.size = engine.size?.bind(engine);
    this.inbox = new SqlInbox(engine, this.appended);
    this.outbox = new SqlOutbox(engine);
    if (engine.commitStamp) {
      this.cache = new RecordCache();
      this.pages = new PageCache();
      this.stamp = new TurnStamp(() => engine.commitStamp!());
    }
  }

  onEventsAppended(listener: () => void): () => void {
    // Other nodes' appends are listened for only once someone here wants to hear of them.
    if (!this.watching) this.engine.watch?.(() => this.appended.fire());
    this.watching = true;
    return this.appended.listen(listener);
  }

  sync(resources: ResourceDefinition[], options: { allowDestructive: boolean }): Promise<SyncReport> {
    return this.engine.sync(resources, options.allowDestructive);
  }

  async get(resource: ResourceDefinition, id: RecordId): Promise<StoredRecord | undefined> {
    if (this.engine.getRecord) return this.engine.getRecord(resource, id);
    if (!this.cache) return this.engine.read((s) => getRecord(s, resource, id));
    // The stamp is taken before the read: a record read across a commit is kept under the stamp before
    // it, which the next lookup (under the commit's stamp) drops.
    const stamp = await this.stamp!.next();
    const hit = this.cache.get(resource.name, id, stamp);
    if (hit) return hit;
    const record = await this.engine.read((s) => getRecord(s, resource, id));
    if (record) this.cache.set(resource.name, id, stamp, record);
    return record;
  }

  async list(resource: ResourceDefinition, query: ListQuery): Promise<Page> {
    if (!this.pages) return this.engine.read((s) => listRecords(s, resource, query));
    // As in get: the stamp is taken before the read, so a page read across a commit is dropped next time.
    const stamp = await this.stamp!.next();
    const key = pageKey(resource.name, query);
    const hit = this.pages.get(key, stamp);
    if (hit) return hit;
    const page = await this.engine.read((s) => listRecords(s, resource, query));
    this.pages.set(key, stamp, page);
    return page;
  }

  listReferencing(resource: ResourceDefinition, query: ReferencingQuery): Promise<StoredRecord[]> {
    if (query.values.length === 0) return Promise.resolve([]);
    return this.engine.read((s) => listReferencing(s, resource, query));
  }

  insert(resource: ResourceDefinition, data: Record<string, unknown>, options: WriteOptions = {}): Promise<StoredRecord> {
    // An auto id can meet a record a PUT created at a client-chosen id; drawing again moves past it.
    const write = this.engine.insertRecord
      ? this.engine.insertRecord(resource, data, options)
      : this.engine.transaction((tx) => insertRecord(tx, resource, data, options), 3);
    return this.signalling(write.catch((err) => Promise.reject(seenBy(err, options.readable))), () => true);
  }

  mutate(resource: ResourceDefinition, id: RecordId, decide: Decide, options: WriteOptions = {}): Promise<Mutation> {
    // Two nodes creating the same new id: the loser's insert hits the primary key; run again, it sees the row.
    // A cascading delete writes other tables' rows too: only the general flow does that.
    const write = this.engine.mutateRecord && !options.cascade
      ? this.engine.mutateRecord(resource, id, decide, options)
      : this.engine.transaction((tx) => mutateRecord(tx, resource, id, decide, options), 2);
    return this.signalling(write.catch((err) => Promise.reject(seenBy(err, options.readable))), (m) => m.outcome !== 'unchanged');
  }

  batch(steps: readonly BatchStep[], options: BatchOptions = {}): Promise<Mutation[]> {
    // Which item failed is known only while the flow runs: PostgreSQL explains a constraint failure after rollback.
    // Each item's readable is its own request's: a unique clash names its holder only to one that may read it.
    let progress: BatchProgress = { index: -1 };
    // Runs once: a batch that lost a race is the client's to send again, with all its checks made anew.
    const write = this.engine.transaction((tx) => runBatch(tx, steps, options, (progress = { index: -1 })));
    const failed = (err: unknown) => {
      if (progress.index < 0 || err instanceof BatchItemError) return Promise.reject(err);
      return Promise.reject(new BatchItemError(progress.index, seenBy(err, progress.readable)));
    };
    return this.signalling(write.catch(failed), (results) => results.some((m) => m.outcome !== 'unchanged'));
  }

  importRecords(sets: ImportSet[], options: ImportOptions): Promise<void> {
    return this.engine.transaction((tx) => importRecords(tx, sets, options));
  }

  async listEvents(query: EventQuery): Promise<EventRecord[]> {
    const upTo = await this.engine.eventHorizon();
    return this.engine.read((s) => listEvents(s, query, upTo));
  }

  getEvent(id: string, visible?: EventVisibility): Promise<EventRecord | undefined> {
    return this.engine.read((s) => getEvent(s, id, visible));
  }

  claimIdempotencyKey(claim: IdempotencyClaim): Promise<ClaimResult> {
    return this.engine.claimIdempotencyKey(claim);
  }

  completeIdempotencyKey(claim: Pick<IdempotencyClaim, 'scope' | 'key' | 'id'>, response: IdempotencyEntry['response'] | undefined, expiresAt?: string): Promise<void> {
    return this.engine.write((s) => completeIdempotencyKey(s, claim, response, expiresAt));
  }

  putDocument(kind: string, id: string, data: Record<string, unknown>, expiresAt?: string): Promise<void> {
    return this.engine.write((s) => putDocument(s, kind, id, data, expiresAt));
  }

  ensureDocument(kind: string, id: string, data: Record<string, unknown>): Promise<Record<string, unknown>> {
    return this.engine.write((s) => ensureDocument(s, kind, id, data));
  }

  getDocument(kind: string, id: string): Promise<Record<string, unknown> | undefined> {
    return this.engine.read((s) => getDocument(s, kind, id));
  }

  listDocuments(kind: string): Promise<Array<{ id: string; data: Record<string, unknown> }>> {
    return this.engine.read((s) => listDocuments(s, kind));
  }

  liveDocumentIds(kind: string, ids: Iterable<string>): Promise<Set<string>> {
    return this.engine.read((s) => liveDocumentIds(s, kind, ids));
  }

  deleteDocument(kind: string, id: string): Promise<boolean> {
    return this.engine.write((s) => deleteDocument(s, kind, id));
  }

  ping(): Promise<void> {
    return this.engine.ping();
  }

  probeStorage(): Promise<void> {
    // One row, overwritten each time: the probe itself never fills the disk.
    return this.engine.write((s) => putDocument(s, 'storage-probe', 'probe', { at: new Date().toISOString() }));
  }

  close(): Promise<void> {
    return this.engine.close();
  }

  /** `write`, firing the event signal once it has committed when `appended` says it wrote an event. */
  private async signalling<T>(write: Promise<T>, appended: (result: T) => boolean): Promise<T> {
    const result = await write;
    if (appended(result)) this.appended.fire();
    return result;
  }
}
