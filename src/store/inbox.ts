import { newUuidHex } from '../core/ids.js';
import type { RecordId } from '../core/record.js';
import type { ResourceDefinition } from '../core/resource.js';

/** Where an inbound delivery stands: waiting for its asynchronous actions, done, or given up on. */
export type DeliveryStatus = 'received' | 'processed' | 'failed';

/** The HTTP response a delivery was answered with; a redelivery gets exactly this again. */
export interface StoredResponse {
  status: number;
  contentType: string;
  body: string;
}

/** One try at running a delivery's asynchronous actions. */
export interface DeliveryAttempt {
  /** 1, 2, 3… */
  number: number;
  at: string;
  outcome: 'processed' | 'failed' | 'retry';
  error: string | null;
  /** What the actions produced, when they produced anything. */
  result?: AttemptResult;
}

/** A record an attempt's actions created, by resource and id (the HTTP layer makes its link). */
export interface CreatedRecord {
  resource: string;
  id: RecordId;
}

/**
 * What an attempt's actions produced: records created and event ids appended. Attempts logged by
 * earlier versions name each record by its path (`/messages/7`) instead.
 */
export interface AttemptResult {
  records: Array<CreatedRecord | string>;
  events: string[];
}

/** The deliveries of one source still waiting for their actions (status `received`, retries included). */
export interface InboxBacklog {
  source: string;
  pending: number;
  /** When the oldest of them was received (ISO); a source with none waiting is not listed. */
  oldestReceivedAt: string;
}

/** A verified delivery as the inbox keeps it. */
export interface Delivery {
  /** Position in the inbox (keyset cursor), increasing. */
  seq: number;
  /** Public id, `whd_…`. */
  id: string;
  source: string;
  /** The provider's id for the event (or one derived from the body); unique per source. */
  eventId: string;
  receivedAt: string;
  /** Request headers, lower-cased, credentials redacted. */
  headers: Record<string, string>;
  contentType: string;
  body: Buffer;
  /** How the delivery was verified (scheme, signed time). */
  verification: Record<string, unknown>;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: string | null;
  lastError: string | null;
  response: StoredResponse;
  attemptLog: DeliveryAttempt[];
}

/** What the receiving route stores; the inbox adds seq, attempts and the log. */
export type NewDelivery = Omit<Delivery, 'seq' | 'attempts' | 'attemptLog'>;

/** A record to create and an event to append in the same transaction as an attempt's outcome. */
export interface AttemptEffects {
  records?: Array<{ resource: ResourceDefinition; data: Record<string, unknown> }>;
  /** `resource` and `recordId` say what the event is about (its `record` link), as for record events. */
  events?: Array<{ type: string; resource: string; recordId: string; data: Record<string, unknown> }>;
}

/** The outcome of an attempt to write down, with its effects when it succeeded. */
export interface AttemptOutcome {
  status: DeliveryStatus;
  nextAttemptAt: string | null;
  error: string | null;
  effects?: AttemptEffects;
  /** The attempt count the caller saw; the write is skipped when another worker moved on (no double effects). */
  expectedAttempts: number;
}

/** Keeps the attempt log bounded: the first attempt and the latest ones. */
export const ATTEMPT_LOG_MAX = 20;

/** A new public delivery id: `whd_` and a UUIDv7 in hex. */
export function newDeliveryId(): string {
  return `whd_${newUuidHex()}`;
}

/** The attempt log after appending one entry, trimmed to {@link ATTEMPT_LOG_MAX}. */
export function appendAttempt(log: DeliveryAttempt[], entry: DeliveryAttempt): DeliveryAttempt[] {
  const next = [...log, entry];
  return next.length > ATTEMPT_LOG_MAX ? [next[0]!, ...next.slice(-(ATTEMPT_LOG_MAX - 1))] : next;
}

/** The delivery after an attempt: counted, its outcome and log entry written. */
export function applyAttempt(current: Delivery, outcome: AttemptOutcome, at: string, result: { records: CreatedRecord[]; events: string[] }): Delivery {
  const attempts = current.attempts + 1;
  const hasResult = result.records.length > 0 || result.events.length > 0;
  const entry: DeliveryAttempt = { number: attempts, at, outcome: outcome.status === 'received' ? 'retry' : outcome.status, error: outcome.error, ...(hasResult ? { result: { ...result } } : {}) };
  return { ...current, status: outcome.status, attempts, nextAttemptAt: outcome.nextAttemptAt, lastError: storableError(outcome.error), attemptLog: appendAttempt(current.attemptLog, entry) };
}

/** Error text as every engine stores it alike: NUL, which PostgreSQL text cannot hold, is written as `\u0000`. */
export function storableError(text: string | null): string | null {
  return text === null ? null : text.replaceAll('\u0000', '\\u0000');
}

/** Maps an inbox row (every engine keeps JSON as text) to a Delivery. */
export function toDelivery(row: any): Delivery {
  return {
    seq: Number(row.seq),
    id: row.id,
    source: row.source,
    eventId: row.event_id,
    receivedAt: row.received_at,
    headers: JSON.parse(row.headers),
    contentType: row.content_type,
    body: Buffer.isBuffer(row.body) ? row.body : Buffer.from(row.body ?? ''),
    verification: JSON.parse(row.verification),
    status: row.status,
    attempts: Number(row.attempts),
    nextAttemptAt: row.next_attempt_at ?? null,
    lastError: row.last_error ?? null,
    response: JSON.parse(row.response),
    attemptLog: JSON.parse(row.attempt_log ?? '[]'),
  };
}

/**
 * The durable inbox of inbound webhook deliveries. Every engine keeps it in the same database as
 * the records, so an attempt's effects (records created, events appended) and its outcome commit
 * together: an action runs exactly once even across crashes and several nodes.
 */
export interface Inbox {
  /**
   * Stores a delivery, resolving once it is durable. When (source, eventId) is already stored,
   * stores nothing and returns the existing delivery with `created: false`.
   */
  receive(delivery: NewDelivery): Promise<{ created: boolean; delivery: Delivery }>;
  /** The stored delivery with this (source, eventId), if any. */
  findByEventId(source: string, eventId: string): Promise<Delivery | undefined>;
  get(source: string, id: string): Promise<Delivery | undefined>;
  /** Deliveries of a source after a seq, oldest first, optionally of one status. */
  list(source: string, query: { after?: number; limit: number; status?: DeliveryStatus }): Promise<Delivery[]>;
  /** Deliveries waiting for their actions (status received) due by `now` (all of them when `now` is omitted), oldest first. */
  due(limit: number, now?: string): Promise<Delivery[]>;
  /**
   * Writes an attempt's outcome, and its effects, atomically. Resolves undefined (and changes
   * nothing) when the delivery's attempt count is no longer `expectedAttempts`.
   */
  settle(id: string, outcome: AttemptOutcome, at: string): Promise<Delivery | undefined>;
  /**
   * Per source, the deliveries waiting for their actions and the oldest one's arrival: one grouped
   * read of the waiting rows only (an index range), for the metrics, which cache it.
   */
  backlog(): Promise<InboxBacklog[]>;
}
