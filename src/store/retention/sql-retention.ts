import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Engine } from '../engine.js';
import { eventRule, pruneEventBatch, pruneExpiredBatch, pruneInboxBatch, pruneOutboundBatch, prunedThrough, type KeysetStep } from './retention-flows.js';
import type { PrunedThrough, PruneOptions, PruneReport, Retention, RetentionPolicy } from './retention.js';

/** Batches of deleted rows after which a table is reclaimed (see Engine.reclaim). */
const RECLAIM_BATCHES = 2;

/**
 * Retention on the shared SQL flows. Every batch is its own short write through the engine's
 * normal write path (on SQLite, one job of its single writer; on PostgreSQL, one short
 * transaction), and the pass yields to other work between batches, so pruning never holds up a
 * request's write for longer than one batch. Where the engine partitions the event log, old events
 * leave by whole partitions instead of row deletes.
 */
export class SqlRetention implements Retention {
  /** Rows deleted per table since it was last reclaimed (where the engine reclaims). */
  private readonly unreclaimed = new Map<string, number>();

  constructor(private readonly engine: Engine) {}

  async prune(policy: RetentionPolicy, options: PruneOptions): Promise<PruneReport> {
    const report: PruneReport = { events: 0, eventPartitions: 0, inbox: 0, outbound: 0, idempotency: 0, documents: 0, batches: 0 };
    const pause = options.yieldBetween ?? (() => nextTurn());
    const stopped = options.stopped ?? (() => false);
    const limit = options.batchSize;
    const now = Date.now();
    const before = (ms: number | null) => (ms === null ? undefined : new Date(now - ms).toISOString());

    const partitions = this.engine.eventPartitions;
    if (partitions) await partitions.prepare(policy.events.partitionSize);
    const e = policy.events;
    if (e.maxAgeMs !== null || e.maxCount !== null) {
      const rule = await this.engine.read((s) => eventRule(s, e.maxCount, before(e.maxAgeMs)));
      if (partitions) {
        report.eventPartitions = await partitions.drop(rule);
        report.batches++;
      } else {
        while (!stopped()) {
          const n = await this.engine.transaction((tx) => pruneEventBatch(tx, rule, limit));
          report.events += n;
          report.batches++;
          if (n < limit) break;
          await pause();
        }
      }
    }

    const inbox = inboxCutoffs(policy.inbox, before);
    if (inbox) report.inbox = await this.keyset(report, stopped, pause, (after) => this.engine.write((s) => pruneInboxBatch(s, inbox, after, limit)));
    const outboundCutoff = before(policy.outbound.maxAgeMs);
    if (outboundCutoff) report.outbound = await this.keyset(report, stopped, pause, (after) => this.engine.write((s) => pruneOutboundBatch(s, outboundCutoff, after, limit)));

    const iso = new Date(now).toISOString();
    for (const table of ['_rw_idempotency', '_rw_documents'] as const) {
      while (!stopped()) {
        const n = await this.engine.write((s) => pruneExpiredBatch(s, table, iso, limit));
        report[table === '_rw_idempotency' ? 'idempotency' : 'documents'] += n;
        report.batches++;
        if (n < limit) break;
        await pause();
      }
    }
    await this.reclaim({ _rw_inbox: report.inbox, _rw_hook_deliveries: report.outbound, _rw_hook_attempts: report.outbound, _rw_idempotency: report.idempotency, _rw_documents: report.documents }, limit);
    return report;
  }

  /**
   * Vacuums a table once RECLAIM_BATCHES batches' worth of its rows were deleted since the last time
   * (not after every pass: a busy log is pruned every few hundred milliseconds), so dead rows stay
   * bounded by that much whatever autovacuum does.
   */
  private async reclaim(deleted: Record<string, number>, batchSize: number): Promise<void> {
    if (!this.engine.reclaim) return;
    for (const [table, n] of Object.entries(deleted)) {
      const total = (this.unreclaimed.get(table) ?? 0) + n;
      if (total < RECLAIM_BATCHES * batchSize) {
        this.unreclaimed.set(table, total);
        continue;
      }
      await this.engine.reclaim(table);
      this.unreclaimed.set(table, 0);
    }
  }

  eventsPrunedThrough(): Promise<PrunedThrough | undefined> {
    return this.engine.read((s) => prunedThrough(s, 'events'));
  }

  /** Runs keyset batches from the start of a log until one says there is no more; resolves the rows deleted. */
  private async keyset(report: PruneReport, stopped: () => boolean, pause: () => Promise<void>, batch: (after: number) => Promise<KeysetStep>): Promise<number> {
    let after = 0;
    let deleted = 0;
    while (!stopped()) {
      const step = await batch(after);
      report.batches++;
      deleted += step.deleted;
      after = step.after;
      if (!step.more) break;
      await pause();
    }
    return deleted;
  }
}

/** Each source's cutoff (its own retention, else the global one) and the latest of them; undefined when the inbox keeps everything. */
function inboxCutoffs(inbox: RetentionPolicy['inbox'], before: (ms: number | null) => string | undefined) {
  const global = before(inbox.maxAgeMs);
  const own = new Map(Object.entries(inbox.sources).map(([name, ms]) => [name, before(ms)]));
  const all = [global, ...own.values()].filter((c): c is string => c !== undefined);
  if (!all.length) return undefined;
  return { of: (source: string) => (own.has(source) ? own.get(source) : global), latest: all.sort().at(-1)! };
}
