import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmdirSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestEngine } from '../../src/test-support/engines.js';

/** A database whose disk can be filled and freed again. */
export interface FullDisk {
  url: string;
  /** From now on writes find no space. */
  fill(): Promise<void>;
  /** Space is back. */
  free(): Promise<void>;
  close(): Promise<void>;
}

/** How an engine's disk is filled in a test; `skip` says why it cannot be on this machine. */
export function fullDisk(engine: TestEngine): { skip?: string; open(): Promise<FullDisk> } {
  if (engine.name === 'postgres') return { open: () => postgresDiskFull(engine.freshUrl()) };
  const skip = tmpfsRefusal();
  return { skip, open: async () => sqliteOnTmpfs() };
}

/** Why a small tmpfs cannot be mounted here (not root, no CAP_SYS_ADMIN, a container without it), or undefined. */
function tmpfsRefusal(): string | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'restwell-tmpfs-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { stdio: 'pipe' });
    execFileSync('umount', [dir], { stdio: 'pipe' });
    return undefined;
  } catch (err) {
    return `a full SQLite disk needs a small tmpfs, and mount -t tmpfs is not permitted here (${String((err as { stderr?: unknown }).stderr ?? err).trim()})`;
  } finally {
    rmdirSync(dir);
  }
}

/**
 * SQLite on a 4 MiB tmpfs of its own: `fill` writes a file until the filesystem says ENOSPC, so
 * the database's next page has nowhere to go; `free` deletes it.
 */
function sqliteOnTmpfs(): FullDisk {
  const dir = mkdtempSync(join(tmpdir(), 'restwell-full-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', dir]);
  const filler = join(dir, 'filler');
  return {
    url: join(dir, 'test.db'),
    async fill() {
      const fd = openSync(filler, 'a');
      const block = Buffer.alloc(4096, 1);
      try {
        for (;;) writeSync(fd, block);
      } catch (err) {
        if ((err as { code?: string }).code !== 'ENOSPC') throw err;
        // The last partial block may still fit a few bytes: take those too.
        for (let n = 2048; n >= 1; n >>= 1) {
          try {
            writeSync(fd, block.subarray(0, n));
          } catch {
            // Not even n bytes: try fewer.
          }
        }
      } finally {
        closeSync(fd);
      }
    },
    async free() {
      rmSync(filler, { force: true });
    },
    async close() {
      execFileSync('umount', ['-l', dir]);
      rmdirSync(dir);
    },
  };
}

/**
 * PostgreSQL's own disk_full error (SQLSTATE 53100), raised by a trigger on every table of the
 * test schema: what the server sends when it cannot extend a file, on the same code path.
 */
async function postgresDiskFull(url: string): Promise<FullDisk> {
  const schema = new URL(url).searchParams.get('schema')!;
  const admin = new URL(url);
  admin.searchParams.delete('schema');
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  const tables = async () =>
    (await client.query<{ t: string }>(`SELECT quote_ident(table_name) AS t FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE'`, [schema])).rows.map((r) => r.t);
  return {
    url,
    async fill() {
      await client.query(`CREATE OR REPLACE FUNCTION "${schema}".rw_test_disk_full() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'could not extend file "base/1/2": No space left on device' USING ERRCODE = 'disk_full'; END $$`);
      for (const t of await tables()) {
        await client.query(`CREATE TRIGGER rw_test_disk_full BEFORE INSERT OR UPDATE OR DELETE ON "${schema}".${t} FOR EACH STATEMENT EXECUTE FUNCTION "${schema}".rw_test_disk_full()`);
      }
    },
    async free() {
      for (const t of await tables()) await client.query(`DROP TRIGGER IF EXISTS rw_test_disk_full ON "${schema}".${t}`);
    },
    async close() {
      await client.end();
    },
  };
}
