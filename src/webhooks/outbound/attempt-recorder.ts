import type { AttemptOutcome, Outbox } from '../../store/outbox.js';

/** Outcomes written per batch at most: one transaction's worth. */
const BATCH = 1000;
/** Batches being written at once: one fills while the other commits, so a round trip's wait is never idle. */
const PARALLEL = 2;

interface Waiting {
  outcome: AttemptOutcome;
  resolve: (recorded: boolean) => void;
  reject: (err: unknown) => void;
}

/**
 * Writes attempt outcomes in batches (group commit): the first outcome is written at once, and
 * those that come in while a batch is being written go together in the next, so the cost of a
 * transaction is shared by every delivery answered during the last one and a lone delivery waits
 * for nothing. Each outcome still settles on its own (Outbox.recordAttempts).
 */
export class AttemptRecorder {
  private readonly waiting: Waiting[] = [];
  private writing = 0;

  constructor(private readonly outbox: Outbox) {}

  /** Resolves what `Outbox.recordAttempt` would, once the outcome's batch is committed. */
  record(outcome: AttemptOutcome): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ outcome, resolve, reject });
      // After the current turn: the other answers already read off the sockets join this batch.
      if (this.waiting.length === 1 && this.writing < PARALLEL) setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    if (!this.waiting.length || this.writing >= PARALLEL) return;
    const batch = this.waiting.splice(0, BATCH);
    this.writing += 1;
    void this.outbox
      .recordAttempts(batch.map((w) => w.outcome))
      .then(
        (settled) => settled.forEach((s, i) => (s.status === 'fulfilled' ? batch[i]!.resolve(s.value) : batch[i]!.reject(s.reason))),
        (err: unknown) => batch.forEach((w) => w.reject(err)),
      )
      .finally(() => {
        this.writing -= 1;
        this.flush();
      });
  }
}
