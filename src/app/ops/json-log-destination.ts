import cluster from 'node:cluster';
import { writeSync } from 'node:fs';
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
 * each line is encoded into a batch buffer of {@link LOG_BUFFER_BYTES} as it is logged, and the batch is
 * handed to pino's asynchronous destination (SonicBoom, `sync: false`) when full or after
 * {@link LOG_FLUSH_MS}, and written off the request path.
 * Encoded at once rather than appended to one string encoded per batch: the string kept every line's
 * pieces alive until the batch was full, so the young-generation collector copied them, and encoding
 * the batch flattened them all again (paired in a server, GET by id: -1.1 µs of CPU per request).
 * Not SonicBoom's own buffer (`minLength`), which measured dearer than a write(2) per line (its strings
 * are encoded again for each 4 KiB write, each crossing to the thread pool).
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
  let batch = Buffer.allocUnsafe(size);
  let used = 0;
  let timer: NodeJS.Timeout | undefined;
  const handOver = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (!used) return;
    // SonicBoom keeps the batch until it is written: the next one is a buffer of its own.
    sonic.write(batch.subarray(0, used) as unknown as string);
    batch = Buffer.allocUnsafe(size);
    used = 0;
  };
  const destination: JsonLogDestination = {
    write(line) {
      // At most 3 bytes of UTF-8 per UTF-16 unit: a line that fits is never cut at the batch's end.
      if (used + line.length * 3 > size) handOver();
      if (line.length * 3 > size) {
        // Longer than a batch could surely hold: written on its own, in order.
        sonic.write(Buffer.from(line) as unknown as string);
        return true;
      }
      used += batch.write(line, used);
      if (!timer) timer = setTimeout(handOver, LOG_FLUSH_MS).unref();
      return true;
    },
    flush(cb) {
      handOver();
      sonic.flush(cb);
    },
    flushSync() {
      if ((sonic as { destroyed?: boolean }).destroyed) return;
      if (timer) clearTimeout(timer);
      timer = undefined;
      // What SonicBoom queues first (a write it has in flight cannot be waited for here), then this
      // batch, written here: handed to SonicBoom, it would only start another asynchronous write.
      sonic.flushSync();
      if (used) writeAllSync(fd, batch.subarray(0, used));
      used = 0;
    },
  };
  atExit.add(new WeakRef(destination));
  if (atExit.size === 1) process.on('exit', flushAllSync);
  return destination;
}

/** How long to wait before trying a write again that a full non-blocking pipe refused (EAGAIN). */
const RETRY_MS = 10;
/** How many such tries before the rest is given up: the process is exiting, and its reader stopped reading. */
const RETRIES = 200;

/** Writes all of `bytes` to `fd` synchronously, retrying while a non-blocking pipe is full. */
function writeAllSync(fd: number, bytes: Buffer): void {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  let left = bytes;
  for (let tries = 0; left.length > 0; ) {
    try {
      left = left.subarray(writeSync(fd, left));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EAGAIN' || ++tries > RETRIES) throw err;
      Atomics.wait(pause, 0, 0, RETRY_MS);
    }
  }
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
