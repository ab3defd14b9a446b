import cluster from 'node:cluster';
import { fstatSync } from 'node:fs';
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
 * Where JSON log lines go (stdout unless `fd` says otherwise), buffered: lines are collected into
 * batches of {@link LOG_BUFFER_BYTES}, each encoded once and handed to pino's destination (SonicBoom)
 * when full or after {@link LOG_FLUSH_MS}: written at once to a regular file, asynchronously (off the
 * request path) to anything else. Not SonicBoom's own buffer (`minLength`), which measured dearer than a
 * write(2) per line (its strings are encoded again for each 4 KiB write, each crossing to the thread pool),
 * nor encoding each line into a buffer (a native call per line) or joining an array of lines per batch.
 * Buffered lines are written when the process exits, by process.exit or an uncaught error, and
 * on the server's close path ({@link flushLog}). A SIGKILL loses what is still buffered.
 */
export function jsonLogDestination(fd = 1, shared = cluster.isWorker): JsonLogDestination {
  const size = shared ? ATOMIC_WRITE_BYTES : LOG_BUFFER_BYTES;
  // A regular file never makes its writer wait for a reader, so its batches are written at once, in this
  // thread, as Node writes process.stdout to a file: a batch's hand-over to the thread pool and its
  // completion callback cost the event loop more than the write(2) itself (~0.2 µs a line). A pipe, socket
  // or terminal is written asynchronously: a reader that stops reading must never stall requests.
  const sync = isRegularFile(fd);
  // minLength 1: SonicBoom writes each batch at once, and its flush(cb) waits for the write in flight;
  // maxWrite: nor does it merge batches waiting behind one in flight into a larger write.
  const sonic = pino.destination({ dest: fd, sync, minLength: 1, maxWrite: size, contentMode: 'buffer' });
  // Lines are appended to one string (V8 links them, nothing is copied) and encoded once per batch.
  let pending = '';
  let timer: NodeJS.Timeout | undefined;
  const handOver = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (!pending) return;
    const batch = Buffer.from(pending);
    pending = '';
    try {
      sonic.write(batch as unknown as string);
    } catch (err) {
      // A synchronous write that fails throws here, in whatever request's hook filled the batch; an
      // asynchronous one fails in its callback. Either way the error is the process's, as it always was.
      process.nextTick(() => {
        throw err;
      });
    }
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

/** True when `fd` is a regular file (not a pipe, socket or terminal). */
function isRegularFile(fd: number): boolean {
  try {
    return fstatSync(fd).isFile();
  } catch {
    return false;
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
