import type pg from 'pg';

/**
 * Tells other nodes (their PostgresListener) that events were appended, by a NOTIFY sent after the
 * appending commits, never inside them. PostgreSQL serializes the commits of every transaction that
 * notifies (a database-wide lock held through the commit's WAL flush): a NOTIFY in each write made
 * writes commit one at a time, which capped them at one commit per flush (measured: 32 clients
 * inserting a row do ~10,000 commits/s, ~500/s when each also notifies). Announced apart, writes
 * commit in groups again, and one notification, at most one in flight per process, covers every
 * commit acknowledged before it was sent.
 *
 * A process that dies between a commit and its announcement leaves the others unwoken until their
 * poll (event streams and the webhook dispatcher poll as well as listen), never missing an event:
 * the notification only wakes readers early, the log is what they read.
 */
export class AppendAnnouncer {
  private sending = false;
  private pending = false;
  private closed = false;

  constructor(private readonly pool: pg.Pool, private readonly channel: string) {}

  /** After a commit that appended events: a NOTIFY will be sent that starts after this call. */
  announce(): void {
    this.pending = true;
    if (!this.sending) void this.drain();
  }

  /** Sends nothing more (the pool is closing). */
  close(): void {
    this.closed = true;
  }

  private async drain(): Promise<void> {
    this.sending = true;
    while (this.pending && !this.closed) {
      this.pending = false;
      // A failure is only a missed early wake-up (see above): the readers' polls still find the events.
      await this.pool.query('SELECT pg_notify($1, \'\')', [this.channel]).catch(() => undefined);
    }
    this.sending = false;
  }
}
