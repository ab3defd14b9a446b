// Durable inserts straight through the SQLite store of one or more builds (no HTTP), in alternating
// rounds in one session: 32 writers each awaiting its write before the next, as wrk -c32 drives POST.
// After a warm-up second, prints writes/s, the process's CPU µs per write (every thread: libuv's fsync
// thread included) and the most the event loop was held up, per round and then as medians.
//
//   npm run build && node bench/profile/store-writes.mjs [--builds now=.,base=/tmp/rw-base] [--rows 1000] [--rounds 5] [--seconds 5]
//     (a build of another commit: git archive <commit> | tar -x -C DIR; ln -s $PWD/node_modules DIR/; (cd DIR && npx tsc -p tsconfig.build.json))
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createRequire } from 'node:module';
import { median, opt, root } from './harness.mjs';

const builds = opt('builds', 'now=.').split(',').map((b) => b.split('=')).map(([name, dir]) => ({ name, dir: resolve(root, dir) }));
const rows = Number(opt('rows', 1000));
const rounds = Number(opt('rounds', 5));
const seconds = Number(opt('seconds', 5));
const writers = 32;

for (const b of builds) {
  b.SqliteStore = (await import(`${b.dir}/dist/store/sqlite/sqlite-store.js`)).SqliteStore;
  b.defineResources = (await import(`${b.dir}/dist/core/resource.js`)).defineResources;
  // The search index's triggers call rw_fold: a connection that inserts characters must have it (builds before the index have none).
  b.registerSqliteFunctions = (await import(`${b.dir}/dist/store/sqlite/sqlite-functions.js`).catch(() => ({}))).registerSqliteFunctions;
  b.results = [];
}
const Database = createRequire(`${root}/package.json`)('better-sqlite3');

/** A fresh database of `rows` characters, made by the build's own schema sync and then bulk-inserted. */
async function fresh(b, path) {
  for (const s of ['', '-wal', '-shm']) rmSync(path + s, { force: true });
  const [characters] = b.defineResources({ resources: { characters: { fields: { name: { type: 'string', required: true, unique: true, maxLength: 200 }, number: { type: 'string', maxLength: 40 } } } } });
  const store = new b.SqliteStore(path);
  await store.sync([characters], { allowDestructive: false });
  await store.close();
  const db = new Database(path);
  b.registerSqliteFunctions?.(db);
  const now = new Date().toISOString();
  const insert = db.prepare('INSERT INTO characters (_version, _gen, _created_at, _updated_at, _owner, name, number) VALUES (1, ?, ?, ?, NULL, ?, ?)');
  // The unique index is built once from the loaded rows (as bench/seed-sqlite.ts does): far faster than a million B-tree inserts.
  const indexes = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'characters' AND sql IS NOT NULL").all();
  db.pragma('cache_size = -262144');
  db.transaction(() => {
    for (const index of indexes) db.exec(`DROP INDEX "${index.name}"`);
    for (let i = 1; i <= rows; i++) insert.run(`g${i}`, now, now, `Character ${i}`, '+1-555-0100');
    for (const index of indexes) db.exec(index.sql);
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return characters;
}

for (let r = 1; r <= rounds; r++) {
  for (const b of builds) {
    const path = `/tmp/rw-store-writes-${b.name}.db`;
    const characters = await fresh(b, path);
    const store = new b.SqliteStore(path);
    await store.sync([characters], { allowDestructive: false });
    const delay = monitorEventLoopDelay({ resolution: 1 });
    const prefix = `${Date.now()}-${r}`;
    let n = 0;
    // A warm-up second, not counted: the JIT settles, and a build with a checkpoint thread has started it.
    const warm = performance.now() + 1000;
    await Promise.all(Array.from({ length: writers }, async () => {
      while (performance.now() < warm) await store.insert(characters, { name: `W ${prefix} warm ${n++}`, number: '+1-555-0100' });
    }));
    n = 0;
    const until = performance.now() + seconds * 1000;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    delay.enable();
    await Promise.all(Array.from({ length: writers }, async () => {
      while (performance.now() < until) await store.insert(characters, { name: `W ${prefix} ${n++}`, number: '+1-555-0100' });
    }));
    delay.disable();
    const cpu = process.cpuUsage(cpu0);
    const wall = performance.now() - t0;
    await store.close();
    const result = { rps: (n * 1000) / wall, cpu: (cpu.user + cpu.system) / n, maxDelay: delay.max / 1e6 };
    b.results.push(result);
    console.log(`round ${r} ${b.name.padEnd(8)} ${Math.round(result.rps)} writes/s  cpu ${result.cpu.toFixed(1)} µs/write  event loop held up to ${result.maxDelay.toFixed(1)} ms`);
    for (const s of ['', '-wal', '-shm']) rmSync(path + s, { force: true });
  }
}
console.log(`\nmedians of ${rounds} rounds, ${writers} writers, ${rows} existing rows, ${seconds} s each`);
for (const b of builds) {
  const m = (k) => median(b.results.map((x) => x[k]));
  console.log(`${b.name.padEnd(8)} ${Math.round(m('rps'))} writes/s  cpu ${m('cpu').toFixed(1)} µs/write  event loop held up to ${m('maxDelay').toFixed(1)} ms`);
}
