/**
 * Tells listeners that new events may be in the log. Listeners run after the current turn of the
 * event loop, once per burst of writes, so a flood of commits costs each reader one wake-up, and a
 * listener that throws cannot fail the write that woke it.
 */
export class EventSignal {
  private readonly listeners = new Set<() => void>();
  private scheduled = false;

  /** Adds a listener; returns the function that removes it. */
  listen(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Called after a commit that appended events (or a notice that another node did). */
  fire(): void {
    if (this.scheduled || !this.listeners.size) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      for (const listener of [...this.listeners]) {
        try {
          listener();
        } catch {
          // A reader's failure is its own; the signal goes on to the others.
        }
      }
    });
  }
}
