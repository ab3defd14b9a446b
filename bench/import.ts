// Times `restwell import` of a json-server db.json of 100,000 rows (10k users, 30k posts, 60k
// comments and a singular profile, as src/test-support/json-server-db.ts makes it) on SQLite and on
// PostgreSQL: three runs each into a fresh database, the median reported. Run from the repository:
//
//   node --import tsx bench/import.ts
//
// PostgreSQL: $BENCH_DATABASE_URL, else $TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test
// (each run in a schema of its own, dropped afterwards); ROWS=n changes the size; BENCH_SKIP_BUILD=1
// times dist/ as it is (otherwise `npm run build` runs first, so the current source is timed).
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { jsonServerDb } from '../src/test-support/json-server-db.js';
import { median } from './load.js';
import { BASE_URL as PG_URL } from './scenarios/postgres.js';
import { buildRestwell, ROOT } from './servers.js';

const ROWS = Number(process.env.ROWS ?? 100_000);
const RUNS = 3;

if (!process.env.BENCH_SKIP_BUILD) await buildRestwell();

const dir = mkdtempSync(join(tmpdir(), 'restwell-bench-import-'));
const file = join(dir, 'db.json');
writeFileSync(file, JSON.stringify(jsonServerDb(ROWS), null, 2));
process.stderr.write(`db.json: ${ROWS} rows, ${(statSync(file).size / 1e6).toFixed(1)} MB\n`);

/** One `restwell import` in its own process: the whole command's wall time, and the load's own (its "Imported … in" line). */
function importOnce(db: string, run: number): { wall: number; load: number } {
  const started = performance.now();
  const res = spawnSync(process.execPath, [join(ROOT, 'bin/restwell.js'), 'import', file, '--db', db, '--config', join(dir, `run-${run}.yaml`), '--force'], { encoding: 'utf8' });
  const wall = (performance.now() - started) / 1000;
  if (res.status !== 0) throw new Error(`restwell import failed:\n${res.stderr}`);
  const load = Number(/Imported \d+ rows into .* in ([\d.]+) s/.exec(res.stderr)?.[1]);
  return { wall, load };
}

async function bench(engine: string, freshUrl: () => string): Promise<string> {
  const runs = [];
  for (let i = 0; i < RUNS; i++) {
    const r = importOnce(freshUrl(), i);
    process.stderr.write(`${engine} run ${i + 1}: ${r.wall.toFixed(2)} s in all, load ${r.load.toFixed(2)} s\n`);
    runs.push(r);
  }
  const wall = median(runs.map((r) => r.wall));
  return `| ${engine} | ${wall.toFixed(2)} s | ${median(runs.map((r) => r.load)).toFixed(2)} s | ${Math.round(ROWS / wall).toLocaleString('en')} |`;
}

const schemas: string[] = [];
const rows: string[] = [];
try {
  rows.push(await bench('SQLite', () => join(mkdtempSync(join(dir, 'sqlite-')), 'restwell.db')));
  const client = new pg.Client({ connectionString: PG_URL });
  try {
    await client.connect();
    rows.push(
      await bench('PostgreSQL', () => {
        const url = new URL(PG_URL);
        const schema = `rw_bench_import_${randomBytes(4).toString('hex')}`;
        schemas.push(schema);
        url.searchParams.set('schema', schema);
        return url.toString();
      }),
    );
    for (const s of schemas) await client.query(`DROP SCHEMA IF EXISTS "${s}" CASCADE`);
  } catch (err) {
    process.stderr.write(`PostgreSQL skipped: ${(err as Error).message}\n`);
  } finally {
    await client.end().catch(() => undefined);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

process.stdout.write(
  `\n\`restwell import\` of a json-server db.json of ${ROWS.toLocaleString('en')} rows, median of ${RUNS} runs (${new Date().toISOString().slice(0, 10)}):\n\n` +
    '| Engine | Whole command | Load (validate + write + commit) | Rows/s (whole command) |\n|---|---|---|---|\n' +
    `${rows.join('\n')}\n`,
);
