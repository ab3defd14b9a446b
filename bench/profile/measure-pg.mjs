// Measures GET /characters/{1..1000, in turn} with wrk against raw node:http and Restwell on PostgreSQL
// (one or more builds), in alternating rounds in one session, and reads the CPU (utime+stime from
// /proc/<pid>/stat) around every wrk run of the Node server AND of its PostgreSQL backends (found
// by the application_name each build's database URL sets): µs of CPU per request on each side.
// Unlike measure.mjs (SQLite, one fixed id) the ids cycle, as the bench's row does, so reads of one
// id never merge; PostgreSQL must run on this machine for its backends' CPU to be read.
//
//   npm run build && node bench/profile/measure-pg.mjs [--rounds 3] [--seconds 10] [--conns 32]
//     [--builds cur=.,base=/tmp/rw-base] [--pool 10] [--profile DIR] [--node-args "--import X"]
//   (a build label starting with "sqlite" serves a SQLite file instead, for comparison; make a base
//    build as measure.mjs says; --profile runs each build under node --cpu-prof, profiles in DIR)
// Database: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test;
// each build gets a schema of its own there (rw_pgm_<label>), dropped afterwards.
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { backendPids, cpuMsOr0, freshDir, loadAverage, median, opt, root, seedCharacters, start, startRestwell, stop, writeCharactersConfig, wrk as runWrk } from './harness.mjs';

const rounds = Number(opt('rounds', 3));
const seconds = Number(opt('seconds', 10));
const conns = Number(opt('conns', 32));
const builds = opt('builds', 'cur=.').split(',').map((b) => b.split('=')).map(([label, dir]) => [label, resolve(root, dir)]);
const profileDir = opt('profile', undefined);
const nodeArgs = opt('node-args', '').split(' ').filter(Boolean);
const baseUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const work = freshDir('/tmp/rw-profile-pg');

const admin = new pg.Client(baseUrl);
await admin.connect();
const cfg = writeCharactersConfig(join(work, 'public.json'));

const backends = (app) => backendPids(admin, app);

const lua = join(work, 'ids.lua');
writeFileSync(lua, 'local n = 0\nrequest = function()\n  n = n + 1\n  return wrk.format("GET", "/characters/" .. ((n % 1000) + 1))\nend\n');
const wrk = (url, d = seconds) => runWrk(url, { seconds: d, conns, args: ['-s', lua] });

const servers = [await start('raw', ['bench/raw-http-server.mjs', '18281'], { port: 18281 })];
let port = 18290;
for (const [label, dir] of builds) {
  const app = `rw_pgm_${label}`;
  await admin.query(`DROP SCHEMA IF EXISTS "${app}" CASCADE`);
  const url = new URL(baseUrl);
  url.searchParams.set('schema', app);
  url.searchParams.set('application_name', app);
  if (opt('pool')) url.searchParams.set('pool_max', opt('pool'));
  const db = label.startsWith('sqlite') ? join(work, `${label}.db`) : url.toString();
  const server = await startRestwell(label, { port: port++, config: cfg, db, cwd: dir, profileDir, nodeArgs });
  await seedCharacters(server.url, 1000);
  servers.push({ ...server, app: label.startsWith('sqlite') ? undefined : app });
}

// A short warm-up of each, so the JIT has settled before anything is counted.
for (const s of servers) wrk(s.url, 3);
const results = new Map(servers.map((s) => [s.name, []]));
for (let r = 1; r <= rounds; r++) {
  for (const s of servers) {
    const before = new Map((s.app ? await backends(s.app) : []).map((pid) => [pid, cpuMsOr0(pid)]));
    const node0 = cpuMsOr0(s.child.pid);
    const w = wrk(s.url);
    const nodeUs = ((cpuMsOr0(s.child.pid) - node0) / w.total) * 1000;
    // A pool drops connections idle for 30 s (while the other servers had their turns), so the run may
    // have been served by backends started during it: all of their CPU is the run's.
    const pids = s.app ? [...new Set([...before.keys(), ...(await backends(s.app))])] : [];
    const pgUs = (pids.reduce((sum, pid) => sum + cpuMsOr0(pid) - (before.get(pid) ?? 0), 0) / w.total) * 1000;
    results.get(s.name).push({ ...w, nodeUs, pgUs });
    const pgPart = s.app ? `  postgres ${pgUs.toFixed(1)} µs/req (${pids.length} backends)` : '';
    console.log(`round ${r} ${s.name.padEnd(8)} ${w.rps.toFixed(0).padStart(7)} req/s  p99 ${w.p99}  node ${nodeUs.toFixed(1)} µs/req${pgPart}${w.non2xx ? `  NON-2XX ${w.non2xx}` : ''}`);
  }
}
const raw = results.get('raw');
console.log(`\nmedians of ${rounds} rounds, wrk -t1 -c${conns} -d${seconds}s, ${new Date().toISOString()}, load average ${loadAverage()}`);
for (const [name, xs] of results) {
  const ratios = xs.map((x, i) => (x.rps / raw[i].rps).toFixed(2)).join(' ');
  const rps = median(xs.map((x) => x.rps));
  console.log(`${name.padEnd(8)} ${rps.toFixed(0).padStart(7)} req/s  ${(rps / median(raw.map((x) => x.rps))).toFixed(2)}x raw (per round: ${ratios})  node ${median(xs.map((x) => x.nodeUs)).toFixed(1)} µs/req  postgres ${median(xs.map((x) => x.pgUs)).toFixed(1)} µs/req`);
}
await stop(servers);
for (const [label] of builds) await admin.query(`DROP SCHEMA IF EXISTS "rw_pgm_${label}" CASCADE`);
await admin.end();
