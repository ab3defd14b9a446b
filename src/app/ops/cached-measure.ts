/**
 * A measurement (a query) taken at most once per `maxAgeMs`, however often it is asked for: a
 * burst of scrapes shares one query, and scrapes within the age share its answer. A scrape waits
 * for a measurement at most `waitMs`; one slower than that still finishes, for the next scrape.
 * A failed measurement leaves no figure (a gap, rather than a stale one) until the next succeeds,
 * and is not tried again before `maxAgeMs` either: a database that is down is not hammered.
 */
export class CachedMeasure<T> {
  private value: T | undefined;
  private takenAt = -Infinity;
  private running: Promise<void> | undefined;
  /** Measurements started so far (what a test of the cache counts). */
  measurements = 0;

  constructor(
    private readonly measure: () => Promise<T>,
    private readonly options: { maxAgeMs: number; waitMs: number; onError?: (err: unknown) => void; now?: () => number },
  ) {}

  /** The latest figure: the cached one while fresh, else a new one (or undefined when none could be had in time). */
  async get(): Promise<T | undefined> {
    if (this.now() - this.takenAt < this.options.maxAgeMs) return this.value;
    this.running ??= this.take();
    const running = this.running;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([running, new Promise<void>((resolve) => (timer = setTimeout(resolve, this.options.waitMs)))]);
    clearTimeout(timer);
    return this.value;
  }

  /** Forgets the figure's age: the next `get` measures again. */
  invalidate(): void {
    this.takenAt = -Infinity;
  }

  private async take(): Promise<void> {
    this.measurements++;
    try {
      this.value = await this.measure();
    } catch (err) {
      this.value = undefined;
      this.options.onError?.(err);
    } finally {
      this.takenAt = this.now();
      this.running = undefined;
    }
  }

  private now(): number {
    return this.options.now?.() ?? performance.now();
  }
}
