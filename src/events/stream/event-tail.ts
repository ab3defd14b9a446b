import type { FastifyBaseLogger } from 'fastify';
import type { EventRecord } from '../../core/events.js';
import type { Store } from '../../store/store.js';
import { logEnd } from './log-end.js';
import { sseFrame } from './sse-frame.js';

/** What the tail hands events to. `frame` builds the event's SSE bytes once, for all who want it. */
export interface TailReader {
  offer(event: EventRecord, frame: () => Buffer): void;
  /**
   * Ends a run of offers (the events handed out between two turns of the event loop): what the
   * reader took from them goes out now, as one write. `run` holds every frame built in the run.
   */
  flush(run: TailRun): void;
}

/**
 * The frames built during one run of offers, in order, and their concatenation, built once: a
 * reader that took every one of them (a stream without filters) writes that one shared buffer.
 */
export class TailRun {
  readonly frames: Buffer[] = [];
  private all: Buffer | undefined;

  /** Every frame of the run in one buffer (built on first use, then shared). */
  joined(): Buffer {
    return (this.all ??= this.frames.length === 1 ? this.frames[0] : Buffer.concat(this.frames));
  }
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
          let run = new TailRun();
          for (const event of page) {
            handed += this.handOut(event, run);
            if (handed < this.yieldBytes) continue;
            handed = 0;
            this.flush(run);
            run = new TailRun();
            await new Promise((resolve) => setImmediate(resolve));
            if (generation !== this.generation) return;
          }
          this.flush(run);
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
  private handOut(event: EventRecord, run: TailRun): number {
    this.position = event.seq;
    let frame: Buffer | undefined;
    const build = () => {
      if (!frame) run.frames.push((frame = sseFrame(event)));
      return frame;
    };
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

  /**
   * Sends what each reader took from a run, one write per reader: a write per event and reader
   * would cost a thousand streams a thousand socket writes per event, and the many small buffered
   * writes of one run outlive a young-generation collection, so the heap swelled with them.
   */
  private flush(run: TailRun): void {
    if (!run.frames.length) return;
    for (const reader of this.readers) {
      try {
        reader.flush(run);
      } catch (err) {
        this.log.warn({ err }, 'event stream: writing events to a client failed');
      }
    }
  }
}
