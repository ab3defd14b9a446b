// Loads the 1M characters of the search rows (bench/scenarios/search.ts) into PostgreSQL schema
// argv[2], synced first by a Restwell server, for search-measure-pg.mjs to read:
//   npm run build && node --import tsx bench/profile/search-seed-pg.ts rw_search_1m [count]
// Database: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test.
import { join } from 'node:path';
import pg from 'pg';
import { writeRestwellConfig } from '../data.js';
import { seedPostgres } from '../scenarios/search.js';
import { BASE_URL } from '../scenarios/postgres.js';
import { startRestwell } from '../servers.js';

async function main(): Promise<void> {
  const schema = process.argv[2] ?? 'rw_search_1m';
  const count = Number(process.argv[3] ?? 1_000_000);
  const admin = new pg.Client({ connectionString: BASE_URL });
  await admin.connect();
  await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  const url = new URL(BASE_URL);
  url.searchParams.set('schema', schema);
  // The first start syncs the schema, as the bench does; the rows are loaded while no server runs.
  await (await startRestwell({ db: url.toString(), config: writeRestwellConfig(join('/tmp', `${schema}.config.json`)) })).stop();
  console.log(`${count} characters in ${schema} in ${(await seedPostgres(admin, schema, count)).toFixed(1)} s`);
  await admin.end();
}

await main();
