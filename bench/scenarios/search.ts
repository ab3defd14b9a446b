import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import { notRun, reason, runRow, seededDatabase } from '../context.js';
import type { BenchContext } from '../settings.js';
import { characterName, characterNumber, writeRestwellConfig } from '../data.js';
import { GROUPS, SERVERS } from '../groups.js';
import type { RequestPlan, Row } from '../load.js';
import { pageCheck, uncachedFilteredPage } from '../requests.js';
import { startRestwell, withServer } from '../servers.js';
import { BASE_URL, benchSchema } from './postgres.js';
import { trigramIndex } from '../../src/store/postgres/postgres-functions.js';
import { searchIndexName } from '../../src/store/schema-plan.js';

const SEARCH_GROUP = GROUPS.search1m;

/** Terms prepared for wrk: enough that none repeats within a run (Restwell's page cache never answers). */
const TERMS = 100_000;

/**
 * `q=` with a six-digit number as the term, a new one each request (bench/wrk/search.lua): each finds
 * the character whose name ends in it (and whose phone number holds it), through both search fields'
 * indexes. The preflight's term is the first wrk sends.
 */
export function searchPage(): RequestPlan {
  let n = 0;
  return {
    method: 'GET',
    path: () => `/characters?limit=20&q=${100000 + (((n++ % TERMS) + 1) * 7919) % 900000}`,
    wrk: () => ({ script: 'search.lua', args: ['/characters?limit=20&q=', String(TERMS)] }),
  };
}

/** The first response holds the one character the term names. */
function searchCheck(body: string): string | undefined {
  try {
    const names = (JSON.parse(body)?._embedded?.characters as Array<{ name: string }>).map((c) => c.name);
    return names.length >= 1 ? undefined : 'the first search found nothing';
  } catch {
    return `the first response is not the expected list: ${body.slice(0, 120)}`;
  }
}

/**
 * Search and the filtered sorted page over 1M rows, on both engines, with servers at default
 * settings: SQLite (FTS5 trigram indexes) and PostgreSQL (pg_trgm GIN indexes; the 1M rows loaded
 * with SQL straight into the schema Restwell synced, search indexes built after the load).
 */
export async function searchRows(ctx: BenchContext): Promise<Row[]> {
  const { large } = ctx.settings.sizes;
  const rows: Row[] = [];
  const db = await seededDatabase(ctx, 'search-1m', large);
  await withServer(startRestwell(db), async (rw) => {
    const restart = (nodeArgs: string[]) => startRestwell({ ...db, nodeArgs });
    rows.push(await runRow(ctx, { group: SEARCH_GROUP.id, scenario: SEARCH_GROUP.label, server: SERVERS.restwell, ceiling: 'get', url: rw.url, pid: rw.child.pid, plan: searchPage(), check: searchCheck, restart }));
  });
  rows.push(...(await postgresSearchRows(ctx, large)));
  return rows;
}

async function postgresSearchRows(ctx: BenchContext, count: number): Promise<Row[]> {
  const server = SERVERS.postgres;
  const na = (why: string) => [notRun(SEARCH_GROUP.id, SEARCH_GROUP.label, server, why, 'get'), notRun(GROUPS.filtered1mUncached.id, GROUPS.filtered1mUncached.label, server, why, 'get')];
  const target = benchSchema();
  if ('notRun' in target) return na(target.notRun);
  const { schema, db } = target;
  const config = writeRestwellConfig(join(ctx.work, 'search-postgres.config.json'));
  const admin = new pg.Client({ connectionString: BASE_URL });
  try {
    await admin.connect();
  } catch (err) {
    return na(`n/a (PostgreSQL not reachable at ${BASE_URL}: ${reason(err)})`);
  }
  try {
    // The first start syncs the schema; the rows are loaded while no server runs.
    await (await startRestwell({ db, config, name: server })).stop();
    const seconds = await seedPostgres(admin, schema, count);
    ctx.progress(`seeded ${count.toLocaleString('en')} characters into PostgreSQL schema ${schema} in ${seconds.toFixed(1)} s`);
    const restart = (nodeArgs: string[]) => startRestwell({ db, config, name: server, nodeArgs });
    return await withServer(startRestwell({ db, config, name: server }), async (rw) => [
      await runRow(ctx, { group: SEARCH_GROUP.id, scenario: SEARCH_GROUP.label, server, ceiling: 'get', url: rw.url, pid: rw.child.pid, plan: searchPage(), check: searchCheck, restart }),
      await runRow(ctx, { group: GROUPS.filtered1mUncached.id, scenario: GROUPS.filtered1mUncached.label, server, ceiling: 'get', url: rw.url, pid: rw.child.pid, plan: uncachedFilteredPage(), check: pageCheck('restwell', 'C'), restart }),
    ]);
  } catch (err) {
    return na(`n/a (${reason(err)})`);
  } finally {
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
    await admin.end();
  }
}

/**
 * Loads `count` characters (the rows the SQLite seed writes) into the synced `characters` table,
 * 20k per INSERT from arrays; the search indexes are dropped first and built once after, as the
 * import does. Returns the seconds it took.
 */
export async function seedPostgres(client: pg.Client, schema: string, count: number): Promise<number> {
  const started = performance.now();
  await client.query(`SET search_path TO "${schema}", public`);
  const fields = ['name', 'number'];
  for (const f of fields) await client.query(`DROP INDEX IF EXISTS "${searchIndexName('characters', f)}"`);
  const now = new Date().toISOString();
  const batch = 20_000;
  for (let from = 1; from <= count; from += batch) {
    const ids: number[] = [];
    const names: string[] = [];
    const numbers: string[] = [];
    const gens: string[] = [];
    for (let i = from; i < Math.min(from + batch, count + 1); i++) {
      ids.push(i);
      names.push(characterName(i));
      numbers.push(characterNumber(i));
      gens.push(randomBytes(6).toString('base64url'));
    }
    await client.query(
      `INSERT INTO characters (id, _version, _gen, _created_at, _updated_at, name, number)
       SELECT id, 1, gen, $5, $5, name, number FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[]) AS t(id, name, number, gen)`,
      [ids, names, numbers, gens, now],
    );
  }
  await client.query(`SELECT setval(pg_get_serial_sequence('characters', 'id'), $1)`, [count]);
  for (const f of fields) await client.query(trigramIndex('characters', f, searchIndexName('characters', f)));
  await client.query('ANALYZE characters');
  await client.query('RESET search_path');
  return (performance.now() - started) / 1000;
}
