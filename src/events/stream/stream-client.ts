import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { matchesEventFilter, type EventFilter } from '../../core/event-filter.js';
import type { EventRecord } from '../../core/events.js';
import { isEventVisible, type EventVisibility } from '../../store/event-query.js';
import { HEARTBEAT_FRAME } from './sse-frame.js';
import type { TailReader, TailRun } from './event-tail.js';

/** Which events a client gets: those it may read, of the types and resources it asked for (none: all), matching its record filter. */
export interface StreamFilter {
  visible?: EventVisibility;
  types: string[];
  resources?: string[];
  /** A record id and field conditions (core/event-filter.ts), applied here to each event. */
  match?: EventFilter;
}

/**
 * Why an open stream ended, as a bounded label: the client went away, its credential was revoked
 * or expired, the server shut down, it did not read fast enough (its buffer filled), or reading
 * the log for it failed.
 */
export const STREAM_END_REASONS = ['client-closed', 'revoked', 'expired', 'shutdown', 'slow-consumer', 'error'] as const;
/** One of {@link STREAM_END_REASONS}. */
export type StreamEndReason = (typeof STREAM_END_REASONS)[number];

/** How long a closing stream may take to flush its last bytes before its socket is cut. */
const END_GRACE_MS = 500;

/**
 * One open stream. It starts catching up (events from the log after its Last-Event-ID, written
 * with backpressure, while live events wait in a bounded backlog), then goes live: the events the
 * tail hands it in one run (between two turns of the event loop) go out in one write at the run's
 * end. `cursor` is the position of the last event written or taken, so an event is never written
 * twice whichever path brought it.
 *
 * Memory is bounded by `bufferBytes`: a client whose unread bytes (or catch-up backlog) pass it is
 * dropped; it reconnects with Last-Event-ID and loses nothing.
 */
export class StreamClient implements TailReader {
  private backlog: Array<{ seq: number; frame: Buffer }> | undefined = [];
  private backlogBytes = 0;
  private closed = false;
  /** Position of the last event written (or the resume point): nothing at or before it is written again. */
  private cursor = 0;
  /** An event went out since the last heartbeat tick: the stream is not idle, so the tick sends nothing. */
  private busy = false;
  private readonly done: Promise<void>;
  /** Set by whoever ends the stream on the server's side; unset, the client closed it. */
  private reason: StreamEndReason | undefined;
  /** Events written to the client (catch-up and live), for the closing log line. */
  private sent = 0;
  /** Live events taken during the tail's current run, written together when the run ends (flush). */
  private pending: Buffer[] = [];

  constructor(
    private readonly res: ServerResponse,
    private readonly filter: StreamFilter,
    private readonly bufferBytes: number,
    private readonly log: FastifyBaseLogger,
  ) {
    this.done = new Promise((resolve) =>
      res.once('close', () => {
        this.closed = true;
        resolve();
      }),
    );
    // A write that races the connection's end must not become an uncaught error; 'close' follows anyway.
    res.on('error', () => undefined);
  }

  /** Resolves once the connection is gone, whoever ended it. */
  get ended(): Promise<void> {
    return this.done;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Why the stream ended (`client-closed` unless the server ended it); meaningful once {@link ended} has resolved. */
  get endReason(): StreamEndReason {
    return this.reason ?? 'client-closed';
  }

  /** Events written to this client so far. */
  get eventsSent(): number {
    return this.sent;
  }

  /** True when this client may see `event` and asked for it (its type, its resource, its record filter). */
  wants(event: EventRecord): boolean {
    return (!this.filter.types.length || this.filter.types.includes(event.type)) && isEventVisible(this.filter.visible, event) && selects(this.filter, event);
  }

  /** An event from the live tail: taken for the run's one write when live, kept in order while catching up. */
  offer(event: EventRecord, frame: () => Buffer): void {
    if (this.closed || event.seq <= this.cursor || !this.wants(event)) return;
    if (this.backlog) {
      const f = frame();
      this.backlog.push({ seq: event.seq, frame: f });
      this.backlogBytes += f.length;
      if (this.backlogBytes > this.bufferBytes) this.drop(`more than ${this.bufferBytes} bytes of live events waited while it caught up`);
      return;
    }
    // Taken now, so nothing at or before it is written again, whichever path brings it.
    this.cursor = event.seq;
    this.pending.push(frame());
  }

  /** Writes the live events taken during the tail's run, in one write; the run's shared buffer when it took them all. */
  flush(run: TailRun): void {
    const taken = this.pending;
    if (!taken.length) return;
    this.pending = [];
    this.checkPressure();
    if (this.closed) return;
    this.busy = true;
    this.sent += taken.length;
    // What a stream takes is a part of the run's frames, in order: as many means the same ones.
    this.res.write(taken.length === run.frames.length ? run.joined() : taken.length === 1 ? taken[0] : Buffer.concat(taken));
  }

  /** Writes one event read from the log during catch-up, waiting while the client's buffer is full. */
  async catchUp(event: EventRecord, frame: Buffer): Promise<void> {
    if (this.closed || event.seq <= this.cursor) return;
    this.cursor = event.seq;
    this.busy = true;
    this.sent++;
    if (!this.res.write(frame) && !this.closed) await Promise.race([once(this.res, 'drain'), this.done]);
  }

  /** Sets where the client resumes (the position of its Last-Event-ID); before it joins the tail. */
  resumeAfter(position: number): void {
    this.cursor = position;
  }

  /** Ends catch-up: the live events that arrived meanwhile (and were not read from the log) go out, then every next one at once. */
  goLive(): void {
    const waiting = this.backlog ?? [];
    this.backlog = undefined;
    this.backlogBytes = 0;
    // At most bufferBytes waited, and catch-up left the socket drained: the next write checks the pressure.
    for (const { seq, frame } of waiting) if (seq > this.cursor) this.writeLive(seq, frame, false);
  }

  /** A comment line on an idle stream; every tick also finds clients that stopped reading while nothing was sent. */
  heartbeat(): void {
    // Before its headers go out a stream is still being set up (or refused): nothing may be written.
    if (this.closed || !this.res.headersSent) return;
    this.checkPressure();
    if (this.busy) this.busy = false;
    else if (!this.closed) this.res.write(HEARTBEAT_FRAME);
  }

  /** Ends the stream cleanly (shutdown, expired token); a client that does not take the last bytes is cut after a short grace. */
  end(why: string, reason: StreamEndReason): Promise<void> {
    if (!this.closed) {
      // Nothing more is written, from here on, until the connection is gone.
      this.closed = true;
      this.reason = reason;
      this.log.debug({ why }, 'event stream ended');
      const cut = setTimeout(() => this.res.destroy(), END_GRACE_MS).unref();
      this.res.end(() => this.res.destroy());
      void this.done.then(() => clearTimeout(cut));
    }
    return this.done;
  }

  private writeLive(seq: number, frame: Buffer, check = true): void {
    if (check) this.checkPressure();
    if (this.closed) return;
    this.cursor = seq;
    this.busy = true;
    this.sent++;
    this.res.write(frame);
  }

  /**
   * Drops the client when what is still queued for it passes bufferBytes. Checked before a write,
   * not after: right after one, the bytes just written count as queued until the socket reports
   * them sent, even for a client that reads at once. (The response's writableLength includes its socket's.)
   */
  private checkPressure(): void {
    const unread = this.res.writableLength;
    if (unread > this.bufferBytes) this.drop(`${unread} bytes unread, more than events.stream.bufferSize (${this.bufferBytes})`);
  }

  /** Cuts a client that does not keep up: waiting for it would make memory grow with every event. */
  private drop(why: string): void {
    if (this.closed) return;
    this.closed = true;
    this.reason = 'slow-consumer';
    this.log.info({ why, lastEventPosition: this.cursor }, 'event stream client dropped; it can resume with Last-Event-ID');
    this.backlog = undefined;
    this.pending = [];
    this.res.destroy();
  }
}

/** The resources and record filter a client asked for. */
function selects(filter: StreamFilter, event: EventRecord): boolean {
  if (filter.resources?.length && !filter.resources.includes(event.resource)) return false;
  return !filter.match || matchesEventFilter(filter.match, event);
}
