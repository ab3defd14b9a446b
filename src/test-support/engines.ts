import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A database engine the behaviour suite runs against. */
export interface TestEngine {
  name: 'sqlite' | 'postgres';
  /** A fresh, empty database URL (a temp SQLite file, or a new PostgreSQL schema). */
  freshUrl(): string;
}

const tempDirs: string[] = [];
// The test process's SQLite files go when it exits (their servers are closed by then).
process.on('exit', () => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

const sqlite: TestEngine = {
  name: 'sqlite',
  freshUrl: () => {
    const dir = mkdtempSync(join(tmpdir(), 'restwell-test-'));
    tempDirs.push(dir);
    return join(dir, 'test.db');
  },
};

/**
 * Every engine to test: SQLite always, PostgreSQL when TEST_DATABASE_URL is set. Each fresh
 * PostgreSQL URL names its own schema (`?schema=`), so parallel runs never collide.
 */
export const engines: TestEngine[] = [sqlite];
const testSchemas = new Set<string>();
const pgUrl = process.env.TEST_DATABASE_URL;
if (pgUrl) {
  engines.push({
    name: 'postgres',
    freshUrl: () => {
      const url = new URL(pgUrl);
      const schema = `rw_test_${randomBytes(5).toString('hex')}`;
      url.searchParams.set('schema', schema);
      testSchemas.add(schema);
      return url.toString();
    },
  });
  // Drops this process's test schemas once its tests are done (the event loop has emptied), so
  // the test database does not fill up; a schema a still-open server uses would keep the loop busy.
  process.on('beforeExit', () => {
    if (!testSchemas.size) return;
    const schemas = [...testSchemas];
    testSchemas.clear();
    void dropSchemas(pgUrl, schemas);
  });
}

async function dropSchemas(url: string, schemas: string[]): Promise<void> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    for (const s of schemas) await client.query(`DROP SCHEMA IF EXISTS "${s}" CASCADE`);
  } catch (err) {
    process.stderr.write(`test schemas left behind (${(err as Error).message}): ${schemas.join(', ')}\n`);
  } finally {
    await client.end().catch(() => undefined);
  }
}
