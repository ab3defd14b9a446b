import type { Engine } from './engine.js';
import type { StorageWatch } from './storage-watch.js';

/**
 * `engine` with every write it runs observed by `watch` (reads are not: they say nothing of
 * space). Only the write methods are replaced, on an object of their own; the rest are the
 * engine's own, bound once, and the optional ones stay absent where the engine has none.
 */
export function watchedEngine(engine: Engine, watch: StorageWatch): Engine {
  const watched: Partial<Engine> = {
    write: (flow) => watch.observe(engine.write(flow)),
    transaction: (flow, attempts) => watch.observe(engine.transaction(flow, attempts)),
    claimIdempotencyKey: (claim) => watch.observe(engine.claimIdempotencyKey(claim)),
  };
  const out: Record<string, unknown> = {};
  for (let o: object | null = engine; o && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
    for (const key of Object.getOwnPropertyNames(o)) {
      const value = (engine as unknown as Record<string, unknown>)[key];
      if (key === 'constructor' || key in out || typeof value !== 'function') continue;
      out[key] = (watched as Record<string, unknown>)[key] ?? value.bind(engine);
    }
  }
  return out as unknown as Engine;
}
