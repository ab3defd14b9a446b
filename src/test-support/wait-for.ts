/**
 * How long a wait may last before the test is declared hung. Not a window the event must fit in:
 * a loaded machine is slow by seconds, never by minutes; this only stops a broken test from
 * hanging the suite (node:test has no timeout of its own).
 */
const HUNG_AFTER_MS = 120_000;

/**
 * Polls `check` (every `everyMs`) until it returns something truthy, and returns that: a test
 * waits for the event, however long the machine takes to get there, never for a number of tries.
 */
export async function waitFor<T>(check: () => T | undefined | false | Promise<T | undefined | false>, what: string, everyMs = 20): Promise<T> {
  const hungAt = Date.now() + HUNG_AFTER_MS;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > hungAt) throw new Error(`still waiting for ${what} after ${HUNG_AFTER_MS / 1000} s: the test is hung`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
