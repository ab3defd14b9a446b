import { Counter, Gauge, type Registry } from 'prom-client';
import type { EventStreams } from '../../events/stream/event-streams.js';
import { STREAM_END_REASONS } from '../../events/stream/stream-client.js';

/**
 * The event streams (`GET /events/stream`) of one server: how many are open now, how many opened,
 * and how many ended by reason (every reason has a series from the start, so a rate over it is
 * defined before the first such end). A stream counts once its 200 is sent; one refused (the cap,
 * a bad Last-Event-ID) is only a request. Returns the function that stops counting.
 */
export function registerStreamMetrics(registry: Registry, streams: EventStreams): () => void {
  const registers = [registry];
  new Gauge({
    name: 'restwell_event_streams_open',
    help: 'Event streams (GET /events/stream) open now on this process',
    registers,
    collect() {
      this.set(streams.openStreams);
    },
  });
  const opened = new Counter({ name: 'restwell_event_streams_opened_total', help: 'Event streams opened (answered 200) on this process', registers });
  const closed = new Counter({ name: 'restwell_event_streams_closed_total', help: 'Event streams ended on this process, by reason: client-closed, revoked, expired (its credential), shutdown, slow-consumer (its buffer filled), error (reading the log failed)', labelNames: ['reason'], registers });
  for (const reason of STREAM_END_REASONS) closed.inc({ reason }, 0);
  return streams.observe({ opened: () => opened.inc(), closed: (reason) => closed.inc({ reason }) });
}
