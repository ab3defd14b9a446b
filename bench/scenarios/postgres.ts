import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { notRun, reason, runRow, seedOverHttp } from '../context.js';
import type { BenchContext } from '../settings.js';
import { writeRestwellConfig } from '../data.js';
import { GROUPS, SERVERS } from '../groups.js';
import type { Row } from '../load.js';
import { changeCharacters, createCharacter, deleteCharacters, getById } from '../requests.js';
import { ceilings } from '../wrk.js';
import { startRestwell } from '../servers.js';

/** The database the PostgreSQL rows use (BENCH_DATABASE_URL, else the tests' TEST_DATABASE_URL); each run gets its own schema in it, dropped afterwards. */
export const BASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Where pgbench is (the PostgreSQL client package installs it there). */
const PGBENCH = '/usr/bin/pgbench';

/** The first id of the records the DELETE row deletes: far past any id a POST of this run draws. */
const DELETE_FIRST_ID = 10_000_001;

/**
 * Restwell on PostgreSQL, at its default settings (pool of 10, a log line per request, as a server
 * started by hand logs): GET by id (paired with raw node:http), then pgbench's single-row INSERT
 * commits on the same database right before Restwell's POST (the target compares the two), then
 * PUT, PATCH and DELETE, each request a different record (so none waits on another's row lock) and
 * each a real change (200/204, never an unchanged write).
 */
export async function postgresRows(ctx: BenchContext): Promise<Row[]> {
  const server = SERVERS.postgres;
  const na = (why: string) => [
    notRun(GROUPS.getById.id, GROUPS.getById.label, server, why, 'get'),
    notRun(GROUPS.pgInsert.id, GROUPS.pgInsert.label, SERVERS.pgbench, why),
    notRun(GROUPS.post1k.id, GROUPS.post1k.label, server, why, 'post'),
    notRun(GROUPS.put.id, GROUPS.put.label, server, why),
    notRun(GROUPS.patch.id, GROUPS.patch.label, server, why),
    notRun(GROUPS.delete.id, GROUPS.delete.label, server, why),
  ];
  const target = benchSchema();
  if ('notRun' in target) return na(target.notRun);
  const { schema, db } = target;
  const unreachable = await reachable();
  if (unreachable) return na(`n/a (PostgreSQL not reachable at ${BASE_URL}: ${unreachable})`);
  const config = writeRestwellConfig(join(ctx.work, 'postgres.config.json'));

  let rw;
  try {
    rw = await startRestwell({ db, config, name: server });
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
        restart: (nodeArgs) => startRestwell({ db, config, name: server, nodeArgs }),
      }),
      await pgbenchRow(ctx, schema),
      await runRow(ctx, { group: GROUPS.post1k.id, scenario: GROUPS.post1k.label, server, ceiling: 'post', url: rw.url, pid: rw.child.pid, plan: createCharacter(), skipIfPreflightFails: true }),
      await runRow(ctx, {
        ...{ group: GROUPS.put.id, scenario: GROUPS.put.label, server, url: rw.url, pid: rw.child.pid, skipIfPreflightFails: true },
        plan: changeCharacters('PUT', small, '{"name":"put {tag}","number":"+1-555-0199"}'),
      }),
      await runRow(ctx, {
        ...{ group: GROUPS.patch.id, scenario: GROUPS.patch.label, server, url: rw.url, pid: rw.child.pid, skipIfPreflightFails: true },
        plan: changeCharacters('PATCH', small, '{"number":"{tag}"}'),
      }),
      await deleteRow(ctx, schema, rw.url, rw.child.pid),
    ];
  } finally {
    await rw.stop();
    await dropSchema(schema);
  }
}

/**
 * pgbench on the same database, in the run's schema: 32 clients (2 threads) each committing one
 * single-row INSERT per transaction, for the same warm-up and window as a POST row; its tps is what
 * the database does alone, the bound Restwell's durable POST is compared with.
 */
async function pgbenchRow(ctx: BenchContext, schema: string): Promise<Row> {
  const { pgInsert } = GROUPS;
  if (!existsSync(PGBENCH)) return notRun(pgInsert.id, pgInsert.label, SERVERS.pgbench, `n/a (no ${PGBENCH})`);
  await admin(`CREATE TABLE "${schema}".rw_pgbench (id bigserial PRIMARY KEY, name text NOT NULL, number text)`);
  const script = join(ctx.work, 'pgbench-insert.sql');
  writeFileSync(script, `INSERT INTO "${schema}".rw_pgbench (name, number) VALUES ('bench', '+1-555-0199');\n`);
  const { connections, writeWarmup, duration } = ctx.settings;
  ctx.progress(`${SERVERS.pgbench.padEnd(26)} ${pgInsert.label}`);
  try {
    if (writeWarmup > 0) await pgbench(script, connections, writeWarmup);
    const r = await pgbench(script, connections, duration);
    return {
      group: pgInsert.id,
      scenario: pgInsert.label,
      server: SERVERS.pgbench,
      measurement: { rps: r.tps, p50: r.latency, p99: r.latency, requests: r.transactions, non2xx: r.failed, errors: 0, statusCodes: {}, seconds: duration, connections, threads: 2 },
      note: `pgbench -c ${connections} -j 2 -T ${duration} -n -f (one INSERT per transaction); p50 and p99 show its average latency (pgbench reports no percentiles without per-transaction logs)`,
    };
  } catch (err) {
    return notRun(pgInsert.id, pgInsert.label, SERVERS.pgbench, `n/a (pgbench failed: ${reason(err)})`);
  }
}

/** Runs pgbench once against BASE_URL and reads its summary. */
async function pgbench(script: string, clients: number, seconds: number): Promise<{ tps: number; latency: number; transactions: number; failed: number }> {
  const url = new URL(BASE_URL);
  const args = ['-h', url.hostname.replace(/^\[|\]$/g, ''), '-p', url.port || '5432', '-U', decodeURIComponent(url.username || 'postgres'), '-n', '-f', script, '-c', String(clients), '-j', '2', '-T', String(seconds), decodeURIComponent(url.pathname.slice(1) || 'postgres')];
  const env = { ...process.env, ...(url.password ? { PGPASSWORD: decodeURIComponent(url.password) } : {}) };
  const { stdout } = await promisify(execFile)(PGBENCH, args, { env, timeout: (seconds + 60) * 1000 });
  const figure = (re: RegExp) => {
    const m = re.exec(stdout);
    if (!m) throw new Error(`pgbench printed no ${re.source}: ${stdout.slice(-300)}`);
    return Number(m[1]);
  };
  const failed = /number of failed transactions: (\d+)/.exec(stdout);
  return {
    tps: figure(/tps = ([\d.]+) \(without initial connection time\)/),
    latency: figure(/latency average = ([\d.]+) ms/),
    transactions: figure(/number of transactions actually processed: (\d+)/),
    failed: failed ? Number(failed[1]) : 0,
  };
}

/**
 * DELETE, one record per request: records are inserted straight into the table (no events: they were
 * never created through the API, which a DELETE does not mind), enough for the row's runs at the
 * fastest rate any server reached in this run (raw node:http POST), past DELETE_FIRST_ID.
 */
async function deleteRow(ctx: BenchContext, schema: string, url: string, pid: number | undefined): Promise<Row> {
  const perSecond = Math.max(ceilings.post ?? 0, 15_000);
  const perRun = (seconds: number) => Math.ceil(perSecond * seconds);
  const total = 1 + perRun(ctx.settings.writeWarmup) + perRun(ctx.settings.duration);
  const now = new Date().toISOString();
  await admin(
    `INSERT INTO "${schema}".characters (id, _version, _gen, _created_at, _updated_at, name, number)
     SELECT g, 1, 'seed', '${now}', '${now}', 'delete me ' || g, '+1-555-0100' FROM generate_series(${DELETE_FIRST_ID}, ${DELETE_FIRST_ID + total - 1}) g`,
  );
  ctx.progress(`seeded ${total.toLocaleString('en')} characters to delete into PostgreSQL schema ${schema}`);
  const { delete: group } = GROUPS;
  return runRow(ctx, { group: group.id, scenario: group.label, server: SERVERS.postgres, url, pid, plan: deleteCharacters(DELETE_FIRST_ID, perRun), skipIfPreflightFails: true });
}

/**
 * A fresh schema on BASE_URL for one section and the database URL that selects it, or why the section
 * cannot run: the bench loads the database hard, so it only ever uses one on this machine's loopback.
 */
export function benchSchema(): { schema: string; db: string } | { notRun: string } {
  const url = new URL(BASE_URL);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) return { notRun: `n/a (BENCH_DATABASE_URL must be on a loopback address, not ${url.hostname})` };
  const schema = `rw_bench_${randomBytes(5).toString('hex')}`;
  url.searchParams.set('schema', schema);
  return { schema, db: url.toString() };
}

/** Runs one statement on BASE_URL. */
async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: BASE_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end().catch(() => {});
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
