import { closeSync, openSync, readSync } from 'node:fs';
import { endianness } from 'node:os';

/** `iVersion` of every wal-index header SQLite has written since 3.7.0 (WALINDEX_MAX_VERSION). */
const WAL_INDEX_VERSION = 3007000;
/** The header is kept twice, 48 bytes each, at the start of the `-shm` file. */
const HEADER_BYTES = 48;
/** A read that found the two copies different is tried again this often before giving up. */
const RETRIES = 3;

/**
 * The change counter of a WAL database's wal-index: `iChange` of the header at the start of the
 * `-shm` file (https://www.sqlite.org/walformat.html, "The WAL-Index Header"), which every commit by
 * any connection in any process increments. One `pread` of the header's two copies reads it, where
 * `PRAGMA data_version` opens and ends a read transaction (two `fcntl` locks and an `fstat`): on this
 * machine 1.0–1.8 µs against 2.7–4.2 µs, on the path of every cached GET.
 *
 * SQLite writes the second copy first and the first last, and reads the first copy, then the second,
 * trusting them only when they match; a `pread` copies them in that same order, so copies that match
 * are a header as some commit left it, and copies that differ (a commit is writing it) are read again
 * and otherwise reported as unknown, never guessed.
 */
export class WalChangeCounter {
  private readonly header = Buffer.alloc(2 * HEADER_BYTES);
  private readonly u32 = endianness() === 'LE' ? (at: number) => this.header.readUInt32LE(at) : (at: number) => this.header.readUInt32BE(at);

  private constructor(private readonly fd: number) {}

  /**
   * The counter of the database whose shared-memory file is `shmPath` (`<db>-shm`, which exists while a
   * connection has the database open in WAL mode), or undefined when there is none or its header is not
   * the documented one: the caller then keeps asking SQLite (`PRAGMA data_version`).
   */
  static open(shmPath: string): WalChangeCounter | undefined {
    let fd: number;
    try {
      fd = openSync(shmPath, 'r');
    } catch {
      return undefined;
    }
    const counter = new WalChangeCounter(fd);
    if (counter.read() === undefined || counter.u32(0) !== WAL_INDEX_VERSION) {
      counter.close();
      return undefined;
    }
    return counter;
  }

  /** The counter now, or undefined when no consistent, initialised header could be read. */
  read(): number | undefined {
    for (let i = 0; i < RETRIES; i++) {
      if (readSync(this.fd, this.header, 0, this.header.length, 0) !== this.header.length) return undefined;
      const initialised = this.header[12] === 1;
      if (initialised && this.header.compare(this.header, HEADER_BYTES, 2 * HEADER_BYTES, 0, HEADER_BYTES) === 0) return this.u32(8);
    }
    return undefined;
  }

  close(): void {
    closeSync(this.fd);
  }
}
