import { hostname } from 'node:os';
import { emptyReading, takeReading, type Reading, type ReadingSources } from './history-reading.js';
import { diffReadings, type Sample } from './history-sample.js';

/** One sample every 10 s, an hour kept: 360 samples, a few kilobytes each at most. */
export const DEFAULT_HISTORY = { intervalMs: 10_000, keepMs: 3_600_000 };

/** Who took the samples: this node, as the dashboard shows it (several nodes each keep their own). */
export interface HistoryNode {
  /** Stable while the process lives: hostname, pid and a random part (the outbox dispatcher's node id). */
  id: string;
  hostname: string;
  pid: number;
  startedAt: string;
}

/**
 * A short in-memory history of this node's metrics, for the console's dashboard: every `intervalMs`
 * it copies the counters the metrics already keep and stores the difference from the last copy as
 * one {@link Sample}, keeping the last `keepMs` worth (a ring: memory is bounded by the count of
 * samples and, per sample, by the route groups, resources, sources and endpoints that were active).
 * Requests pay nothing for it: sampling reads what they already counted. The timer is unref'd
 * (it never keeps the process alive) and `stop()` ends it.
 */
export class MetricsHistory {
  readonly intervalMs: number;
  readonly capacity: number;
  readonly node: HistoryNode;
  private readonly samples: Sample[] = [];
  /** The counters all start at zero with the server, so the first sample counts from its creation. */
  private last: Reading = emptyReading(Date.now());
  private timer?: NodeJS.Timeout;
  private running?: Promise<Sample | undefined>;
  private readonly listeners = new Set<(sample: Sample) => void>();

  constructor(
    private readonly sources: ReadingSources,
    options: { intervalMs?: number; keepMs?: number; nodeId?: string } = {},
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {
    this.intervalMs = options.intervalMs ?? DEFAULT_HISTORY.intervalMs;
    this.capacity = Math.max(1, Math.ceil((options.keepMs ?? DEFAULT_HISTORY.keepMs) / this.intervalMs));
    this.node = { id: options.nodeId ?? `${hostname()}/${process.pid}`, hostname: hostname(), pid: process.pid, startedAt: new Date().toISOString() };
  }

  /** Samples every interval from now on. */
  start(): void {
    this.timer ??= setInterval(() => void this.sample(), this.intervalMs).unref();
  }

  /** Stops sampling; the samples taken stay readable. */
  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /**
   * Takes a sample now (the timer calls it; tests call it to get one without waiting). A call
   * while one is being taken shares it. Resolves with the sample, or undefined when the reading
   * failed (reported to `onError`; the next interval tries again).
   */
  sample(): Promise<Sample | undefined> {
    this.running ??= this.takeSample().finally(() => (this.running = undefined));
    return this.running;
  }

  /** Called with each new sample; returns the function that stops the calls. */
  onSample(listener: (sample: Sample) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** The samples kept, oldest first. */
  list(): readonly Sample[] {
    return this.samples;
  }

  private async takeSample(): Promise<Sample | undefined> {
    let reading: Reading;
    try {
      reading = await takeReading(this.sources);
    } catch (err) {
      this.onError(err);
      return undefined;
    }
    const before = this.last;
    this.last = reading;
    const sample = diffReadings(before, reading, this.sources.metrics.latencyBounds);
    this.samples.push(sample);
    if (this.samples.length > this.capacity) this.samples.splice(0, this.samples.length - this.capacity);
    for (const l of this.listeners) l(sample);
    return sample;
  }
}
