import type { FastifyBaseLogger } from 'fastify';
import type { EventRecord } from '../../core/events.js';
import type { Store } from '../../store/store.js';
import { logEnd } from './log-end.js';
import { sseFrame } from './sse-frame.js';

/** What the tail hands events to. `frame` builds the event's SSE bytes once, for all who want it. */
export interface TailReader {
  offer(event: EventRecord, frame: () => Buffer): void;
}

/** Events read per query; a burst larger than this takes several pages, each handed out before the next. */
const PAGE = 500;

/**
 * The one reader of the event log per server, shared by every stream: it follows the log from
 * its end, woken after each commit that appended events (`Store.onEventsAppended`, other nodes'
 * writes included where the engine can tell) and, in case a wake-up is missed, by a poll. Each new
 * event is read once, whatever the number of readers. It runs only while someone listens: idle, it
 * reads nothing, and it finds the log's end again when the next reader joins.
 */
export class EventTail {
  private readonly readers = new Set<TailReader>();
  private position = 0;
  private starting: Promise<void> | undefined;
  /** Bumped whenever the tail stops, so a read begun before can tell its result is stale. */
  private generation = 0;
  private pumping = false;
  private again = false;
  private stopListening: (() => void) | undefined;
  private poll: NodeJS.Timeout | undefined;
  private stopped = false;

  /**
   * @param yieldBytes After handing out this many bytes the tail lets the event loop turn, so readers
   * that keep up drain their sockets before more is queued: only a reader that does not read sees
   * its unread bytes grow, and only it is dropped, even when one burst is larger than its buffer.
   */
  constructor(
    private readonly store: Store,
    private readonly log: FastifyBaseLogger,
    private readonly yieldBytes: number,
    private readonly pollMs = 1000,
  ) {}

  /**
   * Adds a reader and returns the position from which it will be handed events: every event after
   * it, and none before. Starts the tail (finding the log's end) for the first reader.
   */
  async join(reader: TailReader): Promise<number> {
    for (;;) {
      if (this.stopped) throw new Error('the event tail has stopped');
      this.starting ??= this.start();
      const started = this.starting;
      await started;
      // The tail may have gone idle (and been restarted) while this reader waited: then try again.
      if (this.starting === started) {
        this.readers.add(reader);
        return this.position;
      }
    }
  }

  /** Removes a reader; the last one leaving idles the tail. */
  leave(reader: TailReader): void {
    if (this.readers.delete(reader) && !this.readers.size) this.idle();
  }

  /** Stops for good (server shutdown). */
  stop(): void {
    this.stopped = true;
    this.readers.clear();
    this.idle();
  }

  private async start(): Promise<void> {
    const generation = this.generation;
    try {
      const end = await logEnd(this.store);
      if (generation !== this.generation) return;
      this.position = end;
      this.stopListening = this.store.onEventsAppended(() => this.wake());
      this.poll = setInterval(() => this.wake(), this.pollMs).unref();
    } catch (err) {
      // The next reader tries again (this one gets the error, as a 503 when the database is down).
      this.starting = undefined;
      throw err;
    }
  }

  private idle(): void {
    this.generation += 1;
    this.starting = undefined;
    this.stopListening?.();
    this.stopListening = undefined;
    clearInterval(this.poll);
    this.poll = undefined;
  }

  private wake(): void {
    if (this.pumping) this.again = true;
    else void this.pump();
  }

  /** Reads every event after the position, a page at a time, and hands each to every reader. */
  private async pump(): Promise<void> {
    this.pumping = true;
    const generation = this.generation;
    try {
      do {
        this.again = false;
        for (;;) {
          const page = await this.store.listEvents({ after: this.position, limit: PAGE });
          if (generation !== this.generation) return;
          let handed = 0;
          for (const event of page) {
            handed += this.handOut(event);
            if (handed < this.yieldBytes) continue;
            handed = 0;
            await new Promise((resolve) => setImmediate(resolve));
            if (generation !== this.generation) return;
          }
          if (page.length < PAGE) break;
        }
      } while (this.again);
    } catch (err) {
      // The poll tries again; streams stay open and miss nothing, since the position did not move.
      this.log.warn({ err }, 'event stream: reading the event log failed; retrying');
    } finally {
      this.pumping = false;
      // A wake-up that came while a stale read finished belongs to the tail running now.
      if (this.again) this.wake();
    }
  }

  /** Hands one event to every reader; returns the bytes of its frame, when some reader wanted it. */
  private handOut(event: EventRecord): number {
    this.position = event.seq;
    let frame: Buffer | undefined;
    const build = () => (frame ??= sseFrame(event));
    for (const reader of this.readers) {
      try {
        reader.offer(event, build);
      } catch (err) {
        // One broken connection must not stop the others' events.
        this.log.warn({ err }, 'event stream: handing an event to a client failed');
      }
    }
    return frame?.length ?? 0;
  }
}
