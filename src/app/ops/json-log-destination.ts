import pino from 'pino';

/** Bytes of log lines kept in memory before they are handed to the writer: under load, one write per batch, not per line. */
export const LOG_BUFFER_BYTES = 64 * 1024;
/** How long a line may wait in the buffer when traffic is light (a person tailing the log still sees it promptly). */
export const LOG_FLUSH_MS = 100;

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
 * lines are collected into one string of up to {@link LOG_BUFFER_BYTES} (or {@link LOG_FLUSH_MS} of
 * lines) and handed to pino's asynchronous destination (SonicBoom, `sync: false`), which writes them
 * off the request path. One flat string per batch, not a line at a time: SonicBoom's own buffer
 * (`minLength`) appends each line to a growing string, which measured dearer than a write(2) per line.
 * Buffered lines are written when the process exits, by process.exit or an uncaught error, and
 * on the server's close path ({@link flushLog}). A SIGKILL loses what is still buffered.
 */
export function jsonLogDestination(fd = 1): JsonLogDestination {
  // minLength 1: SonicBoom writes each batch at once, and its flush(cb) waits for the write in flight.
  const sonic = pino.destination({ dest: fd, sync: false, minLength: 1 });
  let parts: string[] = [];
  let bytes = 0;
  let timer: NodeJS.Timeout | undefined;
  const handOver = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (!parts.length) return;
    const batch = parts.length === 1 ? parts[0]! : parts.join('');
    parts = [];
    bytes = 0;
    sonic.write(batch);
  };
  const destination: JsonLogDestination = {
    write(line) {
      parts.push(line);
      bytes += line.length;
      if (bytes >= LOG_BUFFER_BYTES) handOver();
      else if (!timer) timer = setTimeout(handOver, LOG_FLUSH_MS).unref();
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
