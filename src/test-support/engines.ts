import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A database engine the behaviour suite runs against. */
export interface TestEngine {
  name: 'sqlite' | 'postgres';
  /** A fresh, empty database URL (a temp SQLite file, or a new PostgreSQL schema). */
  freshUrl(): string;
}

const sqlite: TestEngine = {
  name: 'sqlite',
  freshUrl: () => join(mkdtempSync(join(tmpdir(), 'restwell-test-')), 'test.db'),
};

/**
 * Every engine to test: SQLite always, PostgreSQL when TEST_DATABASE_URL is set. Each fresh
 * PostgreSQL URL names its own schema (`?schema=`), so parallel runs never collide.
 */
export const engines: TestEngine[] = [sqlite];
const pgUrl = process.env.TEST_DATABASE_URL;
if (pgUrl) {
  engines.push({
    name: 'postgres',
    freshUrl: () => {
      const url = new URL(pgUrl);
      url.searchParams.set('schema', `rw_test_${randomBytes(5).toString('hex')}`);
      return url.toString();
    },
  });
}
