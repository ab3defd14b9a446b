import { StoreFullError } from './errors.js';

/** A change of whether writes can commit: `full` is the error that found storage full, or undefined once a write commits again. */
export type StorageListener = (full: StoreFullError | undefined) => void;

/**
 * Whether writes commit, as the last write found: full from the first write refused for lack of
 * space until the next one that commits. Listeners hear each change once (not each write), so a
 * full disk costs one log line, not one per request; nothing needs resetting when space returns,
 * the next write that commits clears it.
 */
export class StorageWatch {
  /** The error of the write that found storage full, while no write has committed since. */
  full?: StoreFullError;
  private readonly listeners = new Set<StorageListener>();

  /** Calls `listener` on every change from now on; returns the function that stops the calls. */
  listen(listener: StorageListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Settles like `write`, noting on the way whether it committed or was refused for space. */
  async observe<T>(write: Promise<T>): Promise<T> {
    try {
      const result = await write;
      this.set(undefined);
      return result;
    } catch (err) {
      if (err instanceof StoreFullError) this.set(err);
      throw err;
    }
  }

  private set(full: StoreFullError | undefined): void {
    if (!full === !this.full) return;
    this.full = full;
    for (const listener of this.listeners) listener(full);
  }
}
