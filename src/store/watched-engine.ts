import type { Engine } from './engine.js';
import type { StorageWatch } from './storage-watch.js';

/**
 * `engine` with every write it runs observed by `watch` (reads are not: they say nothing of
 * space). Only the write methods are replaced; the rest are the engine's own, bound once, and
 * the optional ones stay absent where the engine has none.
 */
export function watchedEngine(engine: Engine, watch: StorageWatch): Engine {
  const watched: Partial<Engine> = {
    write: (flow) => watch.observe(engine.write(flow)),
    transaction: (flow, attempts) => watch.observe(engine.transaction(flow, attempts)),
    claimIdempotencyKey: (claim) => watch.observe(engine.claimIdempotencyKey(claim)),
    insertRecord: (resource, data, options) => watch.observe(engine.insertRecord!(resource, data, options)),
    mutateRecord: (resource, id, decide, options) => watch.observe(engine.mutateRecord!(resource, id, decide, options)),
  };
  // Other properties are read through to the engine (its prototype here); methods are bound to it, so none runs with `this` set to the wrapper.
  const out = Object.create(engine) as Record<string, unknown>;
  for (let o: object | null = engine; o && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
    for (const key of Object.getOwnPropertyNames(o)) {
      const value = (engine as unknown as Record<string, unknown>)[key];
      if (key === 'constructor' || Object.hasOwn(out, key) || typeof value !== 'function') continue;
      out[key] = (watched as Record<string, unknown>)[key] ?? value.bind(engine);
    }
  }
  return out as unknown as Engine;
}
