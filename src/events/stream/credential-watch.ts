import { serialCheck } from '../../auth/serial-check.js';
import type { FastifyBaseLogger } from 'fastify';
import type { Principal } from '../../auth/principal.js';
import type { Revocations } from '../../auth/revocations.js';

/** One open stream's credential and what to do once it no longer stands. */
interface Watched {
  principal: Principal;
  end(why: string): void;
}

/**
 * Checks again, every `intervalMs`, the credentials of this node's open streams, all of them in one
 * batch (a query or so per kind of credential, however many streams), and at once after a revocation
 * on this node. The store is the truth, so a revocation on another node, or by the CLI in another
 * process on the same SQLite file, ends the streams within one interval. It runs only while it
 * watches something.
 */
export class CredentialWatch {
  private readonly watched = new Set<Watched>();
  private timer: NodeJS.Timeout | undefined;
  private readonly stopListening: () => void;

  constructor(
    private readonly revocations: Revocations,
    private readonly intervalMs: number,
    private readonly log: FastifyBaseLogger,
  ) {
    this.stopListening = revocations.onRevoked(() => void this.check());
  }

  /** Watches a stream's credential until the returned function is called; `end` is called at most once. */
  watch(principal: Principal | undefined, end: (why: string) => void): () => void {
    if (!principal || !this.revocations.revocable(principal)) return () => undefined;
    const entry: Watched = { principal, end };
    this.watched.add(entry);
    this.timer ??= setInterval(() => void this.check(), this.intervalMs).unref();
    return () => this.forget(entry);
  }

  /**
   * Checks every watched credential now; resolves once done (never rejects: a failed check is logged,
   * and the next one tries again). A check asked for while one runs is run after it, since the one
   * running may have read before the revocation that asked committed.
   */
  readonly check: () => Promise<void> = serialCheck(() => this.round());

  /** Stops watching (shutdown). */
  stop(): void {
    this.stopListening();
    this.watched.clear();
    this.idle();
  }

  private async round(): Promise<void> {
    const entries = [...this.watched];
    if (!entries.length) return;
    try {
      const revoked = await this.revocations.findRevoked(new Set(entries.map((e) => e.principal)));
      for (const entry of entries) {
        const why = revoked.get(entry.principal);
        if (why === undefined || !this.forget(entry)) continue;
        try {
          entry.end(why);
        } catch (err) {
          this.log.warn({ err }, 'event stream: ending a stream whose credential was revoked failed');
        }
      }
    } catch (err) {
      // Streams stay open: the database being down revokes nothing, and the next round asks again.
      this.log.warn({ err }, 'event stream: checking the credentials of open streams failed; retrying');
    }
  }

  private forget(entry: Watched): boolean {
    const had = this.watched.delete(entry);
    if (!this.watched.size) this.idle();
    return had;
  }

  private idle(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
