/** A statement's result: at once (SQLite's driver is synchronous) or later (PostgreSQL's). */
export type Maybe<T> = T | Promise<T>;

/**
 * Storage logic both engines share, written once as a generator that hands each statement's
 * result to the engine with `yield* step(…)` and gets it back. SQLite runs a flow synchronously
 * ({@link runNow}) inside its group-commit job, where an `await` would let other work use the
 * connection mid-transaction; PostgreSQL awaits each statement ({@link runLater}).
 */
export type Flow<T> = Generator<unknown, T, unknown>;

/** One statement inside a flow: `const rows = yield* step(s.rows(query))`. */
export function* step<T>(result: Maybe<T>): Generator<Maybe<T>, T, unknown> {
  return (yield result) as T;
}

/** Runs a flow whose statements all answer at once; it returns (or throws) before this does. */
export function runNow<T>(flow: Flow<T>): T {
  let next = flow.next();
  while (!next.done) {
    if (next.value instanceof Promise) throw new Error('a statement answered later inside a synchronous flow');
    next = flow.next(next.value);
  }
  return next.value;
}

/** Runs a flow whose statements answer later, one after the other; a failed one throws inside the flow. */
export async function runLater<T>(flow: Flow<T>): Promise<T> {
  let next = flow.next();
  while (!next.done) {
    let result: unknown;
    try {
      result = await next.value;
    } catch (err) {
      next = flow.throw(err);
      continue;
    }
    next = flow.next(result);
  }
  return next.value;
}
