/**
 * Makes `round` a check that never runs twice at once: asked for while a round runs, it returns that
 * round's promise and runs one more round after it, since the running one may have read before the
 * revocation that asked for the check committed. Several asks meanwhile make one more round, not several.
 * `round` should not reject (a failed round is its own to log); the next check tries again.
 */
export function serialCheck(round: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  let again = false;
  const loop = async () => {
    do {
      again = false;
      await round();
    } while (again);
  };
  return () => {
    if (running) {
      again = true;
      return running;
    }
    running = loop().finally(() => (running = undefined));
    return running;
  };
}
