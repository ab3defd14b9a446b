import type { RetentionConfig } from '../../config/types.js';
import { StoreFullError, StoreUnavailableError } from '../errors.js';
import type { PruneReport, Retention } from './retention.js';

/** The wait between passes while they keep finding a backlog (instead of `retention.interval`). */
const BACKLOG_DELAY_MS = 100;

/** Where the worker reports a pass that pruned something, or failed. */
export interface RetentionLog {
  debug(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/**
 * The one pruning worker of a process: a pass at start and then every `retention.interval`, each
 * in short batches (see Retention); while passes keep finding a backlog, the next follows at once
 * (after a short pause), so a log written faster than one interval's worth stays near its bound. Passes never overlap; `stop` ends the current one after its
 * batch under way, and resolves once it has. Several nodes may each run one: deletes are
 * idempotent and partition upkeep takes turns.
 */
export class RetentionWorker {
  private timer?: NodeJS.Timeout;
  private running?: Promise<PruneReport | undefined>;
  private stopped = false;
  /** The previous pass failed unexpectedly (and was warned of). */
  private failing = false;

  /** Set by the app once it has a logger. */
  log?: RetentionLog;

  constructor(private readonly retention: Retention, private readonly config: RetentionConfig) {}

  start(): void {
    this.stopped = false;
    void this.run();
  }

  /** Runs a pass now (after the one under way, if any); resolves its report. */
  async runOnce(): Promise<PruneReport | undefined> {
    while (this.running) await this.running;
    return this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private run(): Promise<PruneReport | undefined> {
    clearTimeout(this.timer);
    const pass = this.pass().finally(() => {
      this.running = undefined;
      if (!this.stopped) {
        this.timer = setTimeout(() => void this.run(), this.nextDelay);
        this.timer.unref();
      }
    });
    this.running = pass;
    return pass;
  }

  /** The wait before the next pass: short after one that found a backlog (a full batch or more), so a busy log is pruned as fast as it grows. */
  private nextDelay = 0;

  private async pass(): Promise<PruneReport | undefined> {
    try {
      const { events, inbox, outbound } = this.config;
      const report = await this.retention.prune({ events, inbox, outbound }, { batchSize: this.config.batchSize, stopped: () => this.stopped });
      const removed = report.events + report.eventPartitions + report.inbox + report.outbound + report.idempotency + report.documents;
      const backlog = report.eventPartitions > 0 || removed >= this.config.batchSize;
      this.nextDelay = backlog ? Math.min(BACKLOG_DELAY_MS, this.config.intervalMs) : this.config.intervalMs;
      if (removed) this.log?.debug({ retention: report }, 'retention pruned old log entries');
      this.failing = false;
      return report;
    } catch (err) {
      // The next pass tries again. A full disk or a database that is away is reported already (storage
      // watch, readiness); anything else is warned of once per run of failures, not once per pass.
      this.nextDelay = this.config.intervalMs;
      const known = err instanceof StoreFullError || err instanceof StoreUnavailableError;
      if (known || this.failing) this.log?.debug({ err }, 'retention pass failed; the next one tries again');
      else this.log?.warn({ err }, 'retention pass failed; the next one tries again');
      this.failing = !known;
      return undefined;
    }
  }
}
