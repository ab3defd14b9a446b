import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import { notRun, reason, runRow, seedOverHttp } from '../context.js';
import type { BenchContext } from '../settings.js';
import { writeRestwellConfig } from '../data.js';
import { GROUPS, SERVERS } from '../groups.js';
import type { Row } from '../load.js';
import { createCharacter, getById } from '../requests.js';
import { startRestwell } from '../servers.js';

/** The database the PostgreSQL rows use (BENCH_DATABASE_URL, else the tests' TEST_DATABASE_URL); each run gets its own schema in it, dropped afterwards. */
export const BASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Restwell on PostgreSQL (issue 4): GET by id and POST at 1k rows, when the engine is built. */
export async function postgresRows(ctx: BenchContext): Promise<Row[]> {
  const server = SERVERS.postgres;
  const na = (why: string) => [notRun(GROUPS.getById.id, GROUPS.getById.label, server, why, 'get'), notRun(GROUPS.post1k.id, GROUPS.post1k.label, server, why, 'post')];
  const schema = `rw_bench_${randomBytes(5).toString('hex')}`;
  const url = new URL(BASE_URL);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) return na(`n/a (BENCH_DATABASE_URL must be on a loopback address, not ${url.hostname})`);
  url.searchParams.set('schema', schema);
  const unreachable = await reachable();
  if (unreachable) return na(`n/a (PostgreSQL not reachable at ${BASE_URL}: ${unreachable})`);
  const config = writeRestwellConfig(join(ctx.work, 'postgres.config.json'));

  let rw;
  try {
    rw = await startRestwell({ db: url.toString(), config, name: server });
  } catch (err) {
    await dropSchema(schema);
    return na(`n/a (not built: ${reason(err)})`);
  }
  try {
    const { small } = ctx.settings.sizes;
    await seedOverHttp(rw.url, small);
    ctx.progress(`seeded ${small} characters into PostgreSQL schema ${schema} through the API`);
    return [
      await runRow(ctx, {
        ...{ group: GROUPS.getById.id, scenario: GROUPS.getById.label, server, ceiling: 'get', url: rw.url, pid: rw.child.pid, plan: getById(small), skipIfPreflightFails: true },
        restart: (nodeArgs) => startRestwell({ db: url.toString(), config, name: server, nodeArgs }),
      }),
      await runRow(ctx, { group: GROUPS.post1k.id, scenario: GROUPS.post1k.label, server, ceiling: 'post', url: rw.url, pid: rw.child.pid, plan: createCharacter(), skipIfPreflightFails: true }),
    ];
  } finally {
    await rw.stop();
    await dropSchema(schema);
  }
}

/** Undefined when PostgreSQL answers, else why not (so the row is skipped fast instead of Restwell retrying). */
export async function reachable(): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: BASE_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (err) {
    return (err as Error).message;
  } finally {
    await client.end().catch(() => {});
  }
}

export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: BASE_URL });
  try {
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } catch {
    // PostgreSQL unreachable: nothing was created there either.
  } finally {
    await client.end().catch(() => {});
  }
}
