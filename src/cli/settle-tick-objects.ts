import { setImmediate as nextTurn } from 'node:timers/promises';

/** Enough calls for V8 to optimize `process.nextTick` (it tiers up after a few thousand) with a wide margin; ~1 ms at start. */
export const SETTLING_TICKS = 20_000;

function noop(): void {}

/**
 * Calls `process.nextTick` {@link SETTLING_TICKS} times and resolves once they have all run: to be
 * awaited before a server takes its first request.
 *
 * Why: Node builds each tick object from an object literal with symbol keys. When the first few
 * thousand of them were made while the server was already answering requests, about one server
 * process in three (4 of 16, 3 of 5, 4 of 8 in three runs of identical servers) was left building
 * every one of them in V8's runtime — `Runtime_DefineKeyedOwnPropertyInLiteral` and
 * `JSObject::MigrateToMap` under `endReadable`, `resume` and `onwrite` in `perf` — and served a GET by
 * id 15–20% slower (19–20.6 against 16.2–17.3 µs of CPU) for its whole life. Made here first, in a
 * quiet process, they settle before any request: none of 56 servers started after such a warm-up was
 * slow (24 with it preloaded by `--import`, 32 with it here), where 4 of 16 of the build before were, in
 * the same session (`bench/profile/process-spread.mjs` measures the spread).
 */
export async function settleTickObjects(count = SETTLING_TICKS): Promise<void> {
  for (let i = 0; i < count; i++) process.nextTick(noop);
  // The ticks run before the next turn of the event loop.
  await nextTurn();
}
