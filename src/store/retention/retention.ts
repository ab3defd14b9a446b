/** What one pruning pass keeps of each log; a null age or count keeps everything. */
export interface RetentionPolicy {
  events: { maxAgeMs: number | null; maxCount: number | null; partitionSize: number };
  inbox: { maxAgeMs: number | null; sources: Record<string, number | null> };
  outbound: { maxAgeMs: number | null };
}

/** How a pass runs: rows per statement, and when to stop early (shutdown). */
export interface PruneOptions {
  batchSize: number;
  /** Checked between batches: true ends the pass where it is (the next one carries on). */
  stopped?: () => boolean;
  /** Called between batches so other work runs (a macrotask turn by default). */
  yieldBetween?: () => Promise<void>;
}

/** Rows (or, for partitioned logs, partitions) one pass removed, per log, and the statements it took. */
export interface PruneReport {
  events: number;
  eventPartitions: number;
  inbox: number;
  outbound: number;
  idempotency: number;
  documents: number;
  batches: number;
}

/** How far retention has pruned the event log: the last position removed, and when that event was written. */
export interface PrunedThrough {
  seq: number;
  at: string;
}

/**
 * Bounded growth for every log the store keeps: events (by age and count), processed inbound
 * deliveries, finished outbound deliveries and their attempts, expired Idempotency-Keys and
 * documents. Never removed: an inbound delivery not yet processed, an outbound delivery still
 * pending, and events an enabled outbound endpoint has not yet had or a pending delivery sends.
 */
export interface Retention {
  /** Runs one pass over every log, in short batches; safe to run on several nodes at once. */
  prune(policy: RetentionPolicy, options: PruneOptions): Promise<PruneReport>;
  /** How far the event log has been pruned; undefined while nothing was. */
  eventsPrunedThrough(): Promise<PrunedThrough | undefined>;
}

/**
 * Where the event log is partitioned (PostgreSQL), old events leave a whole partition at a time:
 * a DROP, not row deletes and the vacuuming they leave behind.
 */
export interface EventPartitions {
  /** Creates the partitions the next positions will need, ahead of time, moving any early arrivals out of the catch-all. */
  prepare(span: number): Promise<void>;
  /** Drops every whole partition all of whose events may go (see EventRule); resolves how many. */
  drop(rule: EventRule): Promise<number>;
}

/**
 * Which events may go: positions below `floor` (what subscribers still need starts there) that are
 * either at or below `countThrough` (beyond the newest maxCount) or written before `before` (older than maxAge).
 */
export interface EventRule {
  floor: number;
  countThrough: number;
  before?: string;
}

/** True when an event at `seq`, written at `createdAt`, may be pruned under `rule`. */
export function eventMayGo(rule: EventRule, seq: number, createdAt: string): boolean {
  return seq < rule.floor && (seq <= rule.countThrough || (rule.before !== undefined && createdAt < rule.before));
}
