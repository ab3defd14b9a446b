import pino from 'pino';

/** Bytes of log lines kept in memory before they are written: under load, one write per page, not per line. */
export const LOG_BUFFER_BYTES = 4096;
/** How long a line may wait in the buffer when traffic is light (a person tailing the log still sees it promptly). */
export const LOG_FLUSH_MS = 250;

/** A buffered JSON log destination (pino's SonicBoom). */
export type JsonLogDestination = ReturnType<typeof pino.destination>;

/**
 * Where JSON log lines go (stdout unless `fd` says otherwise): pino's asynchronous destination, buffered
 * up to {@link LOG_BUFFER_BYTES} and written off the request path, so a line per request costs a string
 * append rather than a write(2) of its own. pino writes what is buffered synchronously when the process
 * exits, by process.exit or an uncaught error (its exit hook); the server's close path flushes it too
 * ({@link flushLog}). A SIGKILL loses what is still buffered (at most a page, or {@link LOG_FLUSH_MS} of lines).
 */
export function jsonLogDestination(fd = 1): JsonLogDestination {
  return pino.destination({ dest: fd, sync: false, minLength: LOG_BUFFER_BYTES, periodicFlush: LOG_FLUSH_MS });
}

/** How long a shutdown waits for buffered lines to be written (a reader that stopped reading must not hold it up). */
const FLUSH_WAIT_MS = 2000;

/**
 * Writes out what a logger's destination still buffers and resolves once it is written (at once for
 * a destination that buffers nothing). Never rejects: a log that cannot be written must not stop a shutdown.
 */
export function flushLog(log: unknown): Promise<void> {
  const flush = (log as { flush?: (cb: (err?: Error) => void) => void })?.flush;
  if (typeof flush !== 'function') return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, FLUSH_WAIT_MS);
    timer.unref();
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    try {
      flush.call(log, done);
    } catch {
      done();
    }
  });
}
