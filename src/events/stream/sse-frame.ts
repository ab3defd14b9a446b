import type { EventRecord } from '../../core/events.js';
import { halEvent } from '../http/events.js';

/**
 * One event as a Server-Sent Events frame: its id (what a client sends back as Last-Event-ID) and
 * the event exactly as `GET /events/{id}` serves it. No `event:` field, so `EventSource.onmessage`
 * sees every event. JSON never holds a raw newline, so one `data:` line always suffices.
 * A Buffer, built once and written to every client that wants it.
 */
export function sseFrame(event: EventRecord): Buffer {
  return Buffer.from(`id: ${event.id}\ndata: ${JSON.stringify(halEvent(event))}\n\n`);
}

/** A comment line: ignored by EventSource, but it keeps proxies and idle timers from closing the stream. */
export const HEARTBEAT_FRAME = Buffer.from(': keep-alive\n\n');

/** The opening frame: how long a client waits before reconnecting after the stream ends. */
export function retryFrame(ms: number): Buffer {
  return Buffer.from(`retry: ${ms}\n\n`);
}
