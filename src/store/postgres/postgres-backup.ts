import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import pg from 'pg';
import { BackupError, fsyncFile, placeFile, type BackupOptions, type BackupSummary } from '../backup-file.js';
import { parseTarget } from './postgres-pool.js';

/**
 * A PostgreSQL backup is pg_dump's custom format of the schema Restwell uses, taken in the snapshot
 * the summary is read in (exported by a repeatable-read transaction and handed to `pg_dump
 * --snapshot`), so the printed counts and backup point are exactly what the file holds. pg_dump
 * takes no lock that blocks the servers' reads or writes.
 */
export async function backupPostgres(url: string, file: string, options: BackupOptions): Promise<BackupSummary> {
  const tool = toolConnection(url);
  requireTools(['pg_dump'], `pg_dump --format=custom --schema=${parseTarget(url).schema ?? 'public'} --file=${file} '${tool.url}'`);
  const client = await connect(url);
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const snapshot = (await client.query<{ s: string }>('SELECT pg_export_snapshot() AS s')).rows[0].s;
    const schema = await restwellSchema(client, redactedName(url));
    const summary = await summarize(client);
    await run('pg_dump', ['--format=custom', `--snapshot=${snapshot}`, `--schema=${schema}`, `--file=${temp}`, `--dbname=${tool.url}`], tool.env);
    await client.query('COMMIT');
    fsyncFile(temp);
    placeFile(temp, file, options.force ?? false);
    return { bytes: statSync(file).size, ...summary };
  } finally {
    if (existsSync(temp)) unlinkSync(temp);
    await client.end().catch(() => undefined);
  }
}

/**
 * Restores a pg_dump backup into the schema the URL names, in ONE transaction (psql
 * --single-transaction, stopping at the first error): the schema's tables are dropped, then the
 * dump's objects re-created, so tables created after the backup do not linger. Servers connected
 * meanwhile wait on its locks, then see the restored data; stopping them first is still advised.
 */
export async function restorePostgres(url: string, file: string, options: BackupOptions): Promise<BackupSummary> {
  const tool = toolConnection(url);
  requireTools(['pg_restore', 'psql'], `pg_restore --clean --if-exists --single-transaction --no-owner --dbname='${tool.url}' ${file}`);
  const dumped = dumpedSchema(file);
  const client = await connect(url);
  try {
    const schema = (await client.query<{ s: string | null }>('SELECT current_schema() AS s')).rows[0].s ?? parseTarget(url).schema ?? 'public';
    if (dumped !== schema) {
      throw new BackupError(`${file} holds the schema "${dumped}" but the database URL uses "${schema}"; restore with ?schema=${dumped} in the URL`);
    }
    const existing = (await client.query<{ n: string }>(`SELECT count(*) AS n FROM pg_tables WHERE schemaname = $1`, [schema])).rows[0].n;
    if (Number(existing) > 0 && !options.force) {
      throw new BackupError(`the schema "${schema}" of ${redactedName(url)} holds tables; a restore replaces them: stop the servers and add --force`);
    }
    const literal = `'${schema.replaceAll("'", "''")}'`;
    const prelude = `SET client_min_messages = warning;
CREATE SCHEMA IF NOT EXISTS "${schema.replaceAll('"', '""')}";
DO $$ DECLARE r record; BEGIN
  FOR r IN SELECT tablename FROM pg_tables WHERE schemaname = ${literal} LOOP
    EXECUTE format('DROP TABLE IF EXISTS %I.%I CASCADE', ${literal}, r.tablename);
  END LOOP;
  -- Search indexes use pg_trgm's operators; the dump holds the indexes, not the extension.
  BEGIN CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public; EXCEPTION WHEN OTHERS THEN NULL; END;
END $$;
`;
    await restoreScript(file, prelude, tool);
    await client.query(`SET search_path = "${schema.replaceAll('"', '""')}"`);
    return { bytes: statSync(file).size, ...(await summarize(client)) };
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** pg_restore turns the dump into SQL (objects dropped if they exist, then created), which psql runs after the prelude as one transaction. */
async function restoreScript(file: string, prelude: string, tool: { url: string; env: NodeJS.ProcessEnv }): Promise<void> {
  // The schema itself is kept (the prelude creates it when missing): dropping it, as --clean would,
  // fails where an extension lives in it (pg_trgm in public) and would take other applications' objects with it.
  const dir = mkdtempSync(join(tmpdir(), 'restwell-restore-'));
  const list = join(dir, 'objects.list');
  const contents = spawnSync('pg_restore', ['--list', file], { encoding: 'utf8' }).stdout;
  writeFileSync(list, contents.split('\n').filter((line) => !/^\d+; \d+ \d+ (SCHEMA|COMMENT) - (SCHEMA )?\S+ /.test(line)).join('\n'));
  try {
    await runScript(file, list, prelude, tool);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function runScript(file: string, list: string, prelude: string, tool: { url: string; env: NodeJS.ProcessEnv }): Promise<void> {
  const psql = spawn('psql', ['--no-psqlrc', '--quiet', '--single-transaction', '-v', 'ON_ERROR_STOP=1', `--dbname=${tool.url}`], { env: tool.env, stdio: ['pipe', 'ignore', 'pipe'] });
  const restore = spawn('pg_restore', ['--clean', '--if-exists', '--no-owner', '--no-privileges', `--use-list=${list}`, '--file=-', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let errors = '';
  psql.stderr.on('data', (d) => (errors += d));
  restore.stderr.on('data', (d) => (errors += d));
  psql.stdin.on('error', () => undefined);
  psql.stdin.write(prelude);
  restore.stdout.pipe(psql.stdin);
  const [restored, applied] = await Promise.all([exitCode(restore), exitCode(psql)]);
  if (restored !== 0 || applied !== 0) throw new BackupError(`the restore failed and changed nothing (one transaction, rolled back): ${firstLines(errors)}`);
}

/** The schema a Restwell dump holds, from its table of contents; anything else is refused. */
function dumpedSchema(file: string): string {
  const list = spawnSync('pg_restore', ['--list', file], { encoding: 'utf8' });
  if (list.status !== 0) throw new BackupError(`${file} is not a pg_dump backup (pg_restore --list: ${firstLines(list.stderr)})`);
  const m = /^\d+; \d+ \d+ TABLE (\S+) _rw_schema /m.exec(list.stdout);
  if (!m || !/ TABLE \S+ _rw_events /.test(list.stdout)) throw new BackupError(`${file} is a pg_dump backup but not of a Restwell database (no _rw_schema and _rw_events tables)`);
  return m[1];
}

/** The schema holding Restwell's tables (the URL's, else the connection's current one). */
async function restwellSchema(client: pg.Client, name: string): Promise<string> {
  const row = (await client.query<{ s: string | null; ok: boolean }>(`SELECT current_schema() AS s, to_regclass('_rw_schema') IS NOT NULL AND to_regclass('_rw_events') IS NOT NULL AS ok`)).rows[0];
  if (!row.s || !row.ok) throw new BackupError(`${name} holds no Restwell database in the schema it names; check --db or the config's database`);
  return row.s;
}

async function summarize(client: pg.Client): Promise<Omit<BackupSummary, 'bytes'>> {
  const resources = (await client.query<{ resource: string }>('SELECT resource FROM _rw_schema ORDER BY resource')).rows.map((r) => r.resource);
  const collections: Record<string, number> = {};
  for (const name of resources) collections[name] = Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM "${name.replaceAll('"', '""')}"`)).rows[0].n);
  const last = (await client.query('SELECT seq, id, type, created_at AS at FROM _rw_events ORDER BY seq DESC LIMIT 1')).rows[0];
  return { collections, ...(last ? { lastEvent: { seq: Number(last.seq), id: last.id, type: last.type, at: String(last.at) } } : {}) };
}

/** A client on the URL's schema (Restwell's own `schema`/`pool_max` parameters are not pg's). */
async function connect(url: string): Promise<pg.Client> {
  const target = parseTarget(url);
  const client = new pg.Client({ connectionString: target.connectionString, ...(target.schema ? { options: `-c search_path=${target.schema}` } : {}) });
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (err) {
    throw new BackupError(`cannot connect to ${redactedName(url)}: ${(err as Error).message}`);
  }
  return client;
}

/**
 * The URL the PostgreSQL tools get, without its password (a command line is visible to every user
 * of the machine), which goes in their environment (PGPASSWORD) instead.
 */
function toolConnection(url: string): { url: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(parseTarget(url).connectionString);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return { url: parsed.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

/** The database's URL without credentials, for messages. */
function redactedName(url: string): string {
  const parsed = new URL(url);
  parsed.password = parsed.password ? '***' : '';
  return parsed.toString();
}

/** Refuses, with how to install them and the command this one would have run, when the PostgreSQL client tools are missing. */
function requireTools(tools: string[], equivalent: string): void {
  for (const tool of tools) {
    const found = spawnSync(tool, ['--version'], { encoding: 'utf8' });
    if (found.error) {
      throw new BackupError(
        `${tool} is not installed (PostgreSQL backups are pg_dump's); install the PostgreSQL client tools, e.g. \`apt-get install postgresql-client\` or \`brew install libpq\`, of the server's major version or newer; this command then runs the equivalent of: ${equivalent}`,
      );
    }
  }
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const child = spawn(command, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr.on('data', (d) => (errors += d));
  return exitCode(child).then((code) => {
    if (code !== 0) throw new BackupError(`${command} failed: ${firstLines(errors)}`);
  });
}

function exitCode(child: ReturnType<typeof spawn>): Promise<number> {
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve(code ?? 1));
  });
}

function firstLines(text: string): string {
  return text.trim().split('\n').slice(0, 3).join(' / ') || 'no message';
}
