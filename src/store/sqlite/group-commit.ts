import type { Database } from 'better-sqlite3';

interface Job {
  work: () => unknown;
  resolve: (value: any) => void;
  reject: (err: unknown) => void;
}

/**
 * Runs write jobs in batches: every job queued during one turn of the event loop runs in one
 * transaction, each inside its own savepoint so one job's failure rolls back only that job. The
 * batch commits once (one fsync for many writes), and only then are the jobs' promises settled:
 * a caller never acknowledges a write that is not yet durable.
 */
export class GroupCommit {
  private queue: Job[] = [];
  private scheduled = false;

  constructor(private readonly db: Database) {}

  /** Queues `work` (synchronous, run inside the transaction) and resolves with its result after commit. */
  run<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    const jobs = this.queue;
    this.queue = [];
    this.scheduled = false;
    const outcomes: Array<{ ok: boolean; value: unknown }> = [];
    try {
      this.db.exec('BEGIN IMMEDIATE');
      for (const job of jobs) {
        this.db.exec('SAVEPOINT job');
        try {
          outcomes.push({ ok: true, value: job.work() });
          this.db.exec('RELEASE job');
        } catch (err) {
          this.db.exec('ROLLBACK TO job');
          this.db.exec('RELEASE job');
          outcomes.push({ ok: false, value: err });
        }
      }
      this.db.exec('COMMIT');
    } catch (err) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      for (const job of jobs) job.reject(err);
      return;
    }
    jobs.forEach((job, i) => (outcomes[i].ok ? job.resolve(outcomes[i].value) : job.reject(outcomes[i].value)));
  }
}
