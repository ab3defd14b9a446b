// SQLite's share of a durable POST, without HTTP: the group commit's statements (BEGIN IMMEDIATE; per
// write SAVEPOINT, the record's INSERT … RETURNING *, the event's INSERT, RELEASE; COMMIT) in batches
// of 16, on the bench's characters table and Restwell's event log, as Restwell creates them: with the
// search index Restwell keeps by default on both string fields (its triggers, pending rows and FTS5
// flushes; `--search off` leaves it out, to see what it costs).
//   main:   on the main thread; prints µs per write of each statement (timed around its call) and CPU
//   worker: each batch posted to a worker thread with its own connection, as a turn's writes could be;
//           prints the main thread's CPU per write (from /proc/self/task/<pid>/stat) against all threads'
//
//   npm run build && node bench/profile/sqlite-write-loop.mjs [main|worker] [--rows 1000] [--batches 4000] [--search on|off]
import { readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { opt, root } from './harness.mjs';

const mode = process.argv[2] ?? 'main';
const rows = Number(opt('rows', 1000));
const search = opt('search', 'on') === 'on';
const dist = `${root}/dist/store/sqlite`;
const batches = Number(opt('batches', 4000));
const B = 16;
const module = createRequire(`${root}/package.json`).resolve('better-sqlite3');
const Database = createRequire(`${root}/package.json`)('better-sqlite3');
const path = `/tmp/rw-sqlite-write-loop-${process.pid}.db`;
const files = ['', '-wal', '-shm'].map((s) => path + s);

// The tables as Restwell makes them for the bench's characters (src/store/sqlite/sqlite-tables.ts, the resource DDL).
const db = new Database(path);
db.pragma('journal_mode = WAL');
db.exec(`
CREATE TABLE _rw_events (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, type TEXT NOT NULL, resource TEXT NOT NULL,
  record_id TEXT, data TEXT NOT NULL, created_at TEXT NOT NULL, owner TEXT);
CREATE INDEX _rw_events_type ON _rw_events (type, seq);
CREATE TABLE "characters" ("id" integer primary key autoincrement, "_version" integer not null, "_gen" text not null, "_created_at" text not null,
  "_updated_at" text not null, "_owner" text, "name" TEXT, "number" TEXT);
CREATE UNIQUE INDEX "rw_characters_name_u" on "characters" ("name");`);
const { registerSqliteFunctions } = await import(`${dist}/sqlite-functions.js`);
registerSqliteFunctions(db);
if (search) {
  const { createSearchIndexes } = await import(`${dist}/sqlite-search-index.js`);
  for (const ddl of createSearchIndexes('characters', ['name', 'number'])) db.exec(ddl);
}
const seed = db.prepare('INSERT INTO characters (_version, _gen, _created_at, _updated_at, _owner, name, number) VALUES (1, ?, ?, ?, NULL, ?, ?)');
const now = new Date().toISOString();
db.transaction(() => {
  for (let i = 1; i <= rows; i++) seed.run(`g${i}`, now, now, `Character ${i}`, '+1-555-0100');
})();
db.close();

const STATEMENTS = `
  const db = new Database(path);
  db.pragma('journal_mode = WAL'); db.pragma('synchronous = NORMAL'); db.pragma('foreign_keys = ON');
  registerSqliteFunctions(db);
  const s = {
    begin: db.prepare('BEGIN IMMEDIATE'), commit: db.prepare('COMMIT'), sp: db.prepare('SAVEPOINT job'), rel: db.prepare('RELEASE job'),
    ins: db.prepare('INSERT INTO "characters" ("_version","_gen","_created_at","_updated_at","_owner","name","number") VALUES (?,?,?,?,?,?,?) RETURNING *').raw(true),
    ev: db.prepare('INSERT INTO _rw_events (id, type, resource, record_id, data, created_at, owner) VALUES (?, ?, ?, ?, ?, ?, ?)'),
  };
  const t = { begin: 0, sp: 0, ins: 0, ev: 0, rel: 0, commit: 0 };
  const timed = (k, f) => { const a = performance.now(); const r = f(); t[k] += performance.now() - a; return r; };
  const runBatch = (batch) => {
    timed('begin', () => s.begin.run());
    const out = [];
    for (const [p, e] of batch) {
      timed('sp', () => s.sp.run());
      const row = timed('ins', () => s.ins.all(...p))[0];
      e[3] = String(row[0]);
      timed('ev', () => s.ev.run(...e));
      timed('rel', () => s.rel.run());
      out.push(row);
    }
    timed('commit', () => s.commit.run());
    return out;
  };`;

const data = JSON.stringify({ id: 1, name: 'W 1234567890-123456 1234', number: '+1-555-0100', version: 1, createdAt: now, updatedAt: now });
const prefix = `${Date.now()}`;
let n = 0;
const write = () => {
  n++;
  const at = new Date().toISOString();
  return [[1, 'abcdefgh', at, at, null, `W ${prefix} ${n}`, '+1-555-0100'], [`evt_${(1e15 + n).toString(16)}${prefix}`, 'characters.created', 'characters', null, data, at, null]];
};
const mainThreadMs = () => {
  const f = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
};

let run;
let worker;
let times;
if (mode === 'worker') {
  worker = new Worker(`const { parentPort, workerData: { module, path, dist } } = require('node:worker_threads'); const Database = require(module);
    import(dist + '/sqlite-functions.js').then(({ registerSqliteFunctions }) => { ${STATEMENTS}
      parentPort.on('message', (batch) => parentPort.postMessage(runBatch(batch))); });`, { eval: true, workerData: { module, path, dist } });
  run = (batch) => new Promise((resolve) => {
    worker.once('message', resolve);
    worker.postMessage(batch);
  });
} else {
  const local = new Function('Database', 'path', 'registerSqliteFunctions', `${STATEMENTS}; return { runBatch, t };`)(Database, path, registerSqliteFunctions);
  run = async (batch) => local.runBatch(batch);
  times = local.t;
}
await run([write()]);
if (times) for (const k in times) times[k] = 0;
const main0 = mainThreadMs();
const cpu0 = process.cpuUsage();
for (let b = 0; b < batches; b++) await run(Array.from({ length: B }, write));
const writes = batches * B;
const cpu = process.cpuUsage(cpu0);
const perWrite = (ms) => ((ms * 1000) / writes).toFixed(1);
console.log(`${mode}, ${rows} rows, search index ${search ? 'on' : 'off'}, ${writes} writes in batches of ${B}: main thread ${perWrite(mainThreadMs() - main0)} µs/write, all threads ${((cpu.user + cpu.system) / writes).toFixed(1)} µs/write`);
if (times) console.log('  µs per write:', Object.entries(times).map(([k, v]) => `${k} ${perWrite(v)}`).join(', '));
await worker?.terminate();
for (const f of files) rmSync(f, { force: true });
