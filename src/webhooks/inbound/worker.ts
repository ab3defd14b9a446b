import type { FastifyBaseLogger } from 'fastify';
import { ValidationError } from '../../core/errors.js';
import type { Delivery, Inbox } from '../../store/inbox.js';
import { PayloadError } from './providers/index.js';
import { effectsOf } from './process-delivery.js';
import type { Source } from './sources.js';

/** Attempts before a delivery that keeps failing is marked failed. */
export const MAX_ATTEMPTS = 8;
const POLL_MS = 1000;

/** Exponential backoff with jitter: ~10 s, 20 s, 40 s … capped at one hour. */
export function retryDelayMs(attempts: number): number {
  const base = Math.min(10_000 * 2 ** (attempts - 1), 3_600_000);
  return Math.round(base * (0.8 + Math.random() * 0.4));
}

/**
 * Runs the asynchronous actions (store, emit) of received deliveries after their 2xx. On start it
 * takes every delivery still marked received (so a crash right after an acknowledgement loses
 * nothing), then polls for retries that fall due. Outcome and effects commit together, and only
 * if no other worker settled the same attempt first, so an action never runs twice.
 */
export class InboxWorker {
  private timer?: NodeJS.Timeout;
  private readonly pending = new Set<NodeJS.Timeout>();
  private readonly running = new Set<string>();
  private readonly inflight = new Set<Promise<unknown>>();
  private stopped = true;

  constructor(
    private readonly inbox: Inbox,
    private readonly sources: Map<string, Source>,
    private readonly log: () => FastifyBaseLogger | undefined,
    private readonly delayMs = 0,
  ) {}

  /** Processes what was left received by an earlier run (in the background), then polls for due retries. */
  start(): void {
    this.stopped = false;
    void this.track(this.sweep()).catch((err) => this.log()?.error({ err: (err as Error).message }, 'webhook worker start-up sweep failed'));
  }

  private async sweep(): Promise<void> {
    const seen = new Set<string>();
    try {
      for (;;) {
        const batch = (await this.inbox.due(100)).filter((d) => !seen.has(d.id));
        if (!batch.length || this.stopped) break;
        for (const d of batch) seen.add(d.id);
        await Promise.all(batch.map((d) => this.process(d)));
      }
    } finally {
      this.schedulePoll();
    }
  }

  /** Called after a delivery with asynchronous actions was acknowledged. */
  nudge(delivery: Delivery): void {
    if (this.stopped) return;
    if (this.delayMs <= 0) {
      void this.track(this.process(delivery));
      return;
    }
    const t = setTimeout(() => {
      this.pending.delete(t);
      void this.track(this.process(delivery));
    }, this.delayMs);
    t.unref();
    this.pending.add(t);
  }

  /** Stops polling and waits for attempts in flight (so the store can close under them safely). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    for (const t of this.pending) clearTimeout(t);
    this.pending.clear();
    await Promise.allSettled([...this.inflight]);
  }

  /**
   * One attempt at a delivery's actions; resolves with the delivery after it, or undefined when
   * another attempt was already under way or won the race.
   */
  async process(delivery: Delivery): Promise<Delivery | undefined> {
    if (this.running.has(delivery.id)) return undefined;
    this.running.add(delivery.id);
    try {
      return await this.attempt(delivery);
    } finally {
      this.running.delete(delivery.id);
    }
  }

  private async attempt(d: Delivery): Promise<Delivery | undefined> {
    const at = new Date().toISOString();
    const source = this.sources.get(d.source);
    try {
      if (!source) throw new PayloadError(`webhook source "${d.source}" is no longer configured`);
      const effects = await effectsOf(source, d);
      return await this.inbox.settle(d.id, { status: 'processed', nextAttemptAt: null, error: null, effects, expectedAttempts: d.attempts }, at);
    } catch (err) {
      const permanent = err instanceof PayloadError || err instanceof ValidationError;
      const giveUp = permanent || d.attempts + 1 >= MAX_ATTEMPTS;
      const error = (err as Error).message ?? String(err);
      this.log()?.warn({ source: d.source, delivery: d.id, attempt: d.attempts + 1, err: error }, giveUp ? 'webhook actions failed; giving up' : 'webhook actions failed; will retry');
      const nextAttemptAt = giveUp ? null : new Date(Date.now() + retryDelayMs(d.attempts + 1)).toISOString();
      try {
        return await this.inbox.settle(d.id, { status: giveUp ? 'failed' : 'received', nextAttemptAt, error, expectedAttempts: d.attempts }, at);
      } catch (settleErr) {
        // The database is away: the delivery stays received and is retried by the next poll or restart.
        this.log()?.error({ delivery: d.id, err: (settleErr as Error).message }, 'cannot record a webhook attempt');
        return undefined;
      }
    }
  }

  private schedulePoll(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.track(this.poll()).finally(() => this.schedulePoll());
    }, POLL_MS);
    this.timer.unref();
  }

  private async poll(): Promise<void> {
    try {
      const due = await this.inbox.due(100, new Date().toISOString());
      await Promise.all(due.map((d) => this.process(d)));
    } catch (err) {
      this.log()?.error({ err: (err as Error).message }, 'webhook worker poll failed');
    }
  }

  private track<T>(p: Promise<T>): Promise<T> {
    this.inflight.add(p);
    void p.finally(() => this.inflight.delete(p)).catch(() => undefined);
    return p;
  }
}
