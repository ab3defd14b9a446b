import cluster from 'node:cluster';
import pino from 'pino';

/** Bytes of log lines kept in memory before they are handed to the writer: under load, one write per batch, not per line. */
export const LOG_BUFFER_BYTES = 64 * 1024;
/** How long a line may wait in the buffer when traffic is light (a person tailing the log still sees it promptly). */
export const LOG_FLUSH_MS = 100;

/**
 * Linux's PIPE_BUF: a write to a pipe of at most this many bytes is never interleaved with another
 * process's. The workers of `serve --workers N` share one stdout, so each writes batches no larger.
 */
export const ATOMIC_WRITE_BYTES = 4096;

/** A buffered JSON log destination: pino writes lines into it; the shutdown and crash paths empty it. */
export interface JsonLogDestination {
  write(line: string): boolean;
  /** Hands what is buffered to the writer and calls `cb` once all of it is written. */
  flush(cb?: (err?: Error) => void): void;
  /** Writes everything buffered, synchronously: for the exit path, where no callback runs any more. */
  flushSync(): void;
}

/**
 * Where JSON log lines go (stdout unless `fd` says otherwise), written asynchronously and buffered:
 * lines are collected into batches of {@link LOG_BUFFER_BYTES}, each encoded once and handed to pino's
 * asynchronous destination (SonicBoom, `sync: false`) when full or after {@link LOG_FLUSH_MS}, and
 * written off the request path. Not SonicBoom's own buffer (`minLength`), which measured dearer than a
 * write(2) per line (its strings are encoded again for each 4 KiB write, each crossing to the thread pool),
 * nor encoding each line into a buffer (a native call per line) or joining an array of lines per batch.
 * Nor written synchronously, even to a regular file: cheaper per line in a loop (~0.2 µs), but in a
 * server whose disk was busy a write(2) of a batch held the event loop for tens of ms (p99 80-250 ms
 * against 4-30 ms, 0.74x the req/s).
 * Buffered lines are written when the process exits, by process.exit or an uncaught error, and
 * on the server's close path ({@link flushLog}). A SIGKILL loses what is still buffered.
 */
export function jsonLogDestination(fd = 1, shared = cluster.isWorker): JsonLogDestination {
  const size = shared ? ATOMIC_WRITE_BYTES : LOG_BUFFER_BYTES;
  // minLength 1: SonicBoom writes each batch at once, and its flush(cb) waits for the write in flight;
  // maxWrite: nor does it merge batches waiting behind one in flight into a larger write.
  const sonic = pino.destination({ dest: fd, sync: false, minLength: 1, maxWrite: size, contentMode: 'buffer' });
  // Lines are appended to one string (V8 links them, nothing is copied) and encoded once per batch.
  let pending = '';
  let timer: NodeJS.Timeout | undefined;
  const handOver = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (!pending) return;
    sonic.write(Buffer.from(pending) as unknown as string);
    pending = '';
  };
  // Shared: at most 3 bytes of UTF-8 per UTF-16 unit, so a batch never exceeds `size` bytes.
  const units = shared ? Math.floor(size / 3) : size;
  const destination: JsonLogDestination = {
    write(line) {
      if (pending.length + line.length > units) handOver();
      pending += line;
      if (!timer) timer = setTimeout(handOver, LOG_FLUSH_MS).unref();
      return true;
    },
    flush(cb) {
      handOver();
      sonic.flush(cb);
    },
    flushSync() {
      if ((sonic as { destroyed?: boolean }).destroyed) return;
      handOver();
      sonic.flushSync();
    },
  };
  atExit.add(new WeakRef(destination));
  if (atExit.size === 1) process.on('exit', flushAllSync);
  return destination;
}

/** The destinations to empty when the process exits (weakly held: a logger that is gone has nothing to write). */
const atExit = new Set<WeakRef<JsonLogDestination>>();

function flushAllSync(): void {
  for (const ref of atExit) {
    try {
      ref.deref()?.flushSync();
    } catch {
      // Nowhere left to say that the log could not be written.
    }
  }
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
