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
import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';

const root = resolve(import.meta.dirname, '../..');
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i < 0 ? dflt : args[i + 1];
};
const rounds = Number(opt('rounds', 3));
const seconds = Number(opt('seconds', 10));
const conns = Number(opt('conns', 32));
const builds = opt('builds', 'cur=.').split(',').map((b) => b.split('=')).map(([label, dir]) => [label, resolve(root, dir)]);
const profileDir = opt('profile', undefined);
const nodeArgs = opt('node-args', '').split(' ').filter(Boolean);
const baseUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const work = '/tmp/rw-profile-pg';
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });

const admin = new pg.Client(baseUrl);
await admin.connect();
const cfg = join(work, 'public.json');
const characters = { fields: { name: { type: 'string', required: true, unique: true, maxLength: 200 }, number: { type: 'string', maxLength: 40 } } };
writeFileSync(cfg, JSON.stringify({ resources: { characters: { ...characters, access: { read: 'public', write: 'public' } } }, auth: { rateLimit: false } }));

const children = [];
process.on('exit', () => children.forEach((c) => c.exitCode === null && c.kill('SIGKILL')));

async function start(name, argv, port, cwd) {
  const child = spawn(process.execPath, argv, { cwd, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, LOG_LEVEL: 'warn' } });
  children.push(child);
  for (let i = 0; i < 300; i++) {
    try {
      await fetch(`http://127.0.0.1:${port}/`).then((r) => r.arrayBuffer());
      return { name, child, url: `http://127.0.0.1:${port}` };
    } catch {
      await sleep(50);
    }
  }
  throw new Error(`${name} did not start`);
}

async function seed(url, count) {
  let next = 1;
  const worker = async () => {
    while (next <= count) {
      const i = next++;
      const res = await fetch(`${url}/characters`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: `Character ${i}`, number: '+1-555-0100' }) });
      if (res.status !== 201) throw new Error(`seed: ${res.status} ${await res.text()}`);
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
}

/** utime + stime of a process, in ms (clock ticks are 10 ms on Linux); 0 once it is gone. */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

async function backends(app) {
  return (await admin.query('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [app])).rows.map((r) => r.pid);
}

const lua = join(work, 'ids.lua');
writeFileSync(lua, 'local n = 0\nrequest = function()\n  n = n + 1\n  return wrk.format("GET", "/characters/" .. ((n % 1000) + 1))\nend\n');
function wrk(url, d = seconds) {
  const out = execFileSync('wrk', ['-t1', `-c${conns}`, `-d${d}s`, '--latency', '-s', lua, url], { encoding: 'utf8' });
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)[1]);
  const total = Number(/(\d+) requests in/.exec(out)[1]);
  const p99 = /^\s+99%\s+(\S+)/m.exec(out)?.[1];
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1];
  return { rps, total, p99, non2xx };
}

const servers = [await start('raw', ['bench/raw-http-server.mjs', '18281'], 18281, root)];
let port = 18290;
for (const [label, dir] of builds) {
  const app = `rw_pgm_${label}`;
  await admin.query(`DROP SCHEMA IF EXISTS "${app}" CASCADE`);
  const url = new URL(baseUrl);
  url.searchParams.set('schema', app);
  url.searchParams.set('application_name', app);
  if (opt('pool')) url.searchParams.set('pool_max', opt('pool'));
  const db = label.startsWith('sqlite') ? join(work, `${label}.db`) : url.toString();
  const prof = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${label}.cpuprofile`] : [];
  const server = await start(label, [...nodeArgs, ...prof, 'bin/restwell.js', 'serve', '--config', cfg, '--port', String(port), '--host', '127.0.0.1', '--db', db], port++, dir);
  await seed(server.url, 1000);
  servers.push({ ...server, app: label.startsWith('sqlite') ? undefined : app });
}

// A short warm-up of each, so the JIT has settled before anything is counted.
for (const s of servers) wrk(s.url, 3);
const results = new Map(servers.map((s) => [s.name, []]));
for (let r = 1; r <= rounds; r++) {
  for (const s of servers) {
    const before = new Map((s.app ? await backends(s.app) : []).map((pid) => [pid, cpuMs(pid)]));
    const node0 = cpuMs(s.child.pid);
    const w = wrk(s.url);
    const nodeUs = ((cpuMs(s.child.pid) - node0) / w.total) * 1000;
    // A pool drops connections idle for 30 s (while the other servers had their turns), so the run may
    // have been served by backends started during it: all of their CPU is the run's.
    const pids = s.app ? [...new Set([...before.keys(), ...(await backends(s.app))])] : [];
    const pgUs = (pids.reduce((sum, pid) => sum + cpuMs(pid) - (before.get(pid) ?? 0), 0) / w.total) * 1000;
    results.get(s.name).push({ ...w, nodeUs, pgUs });
    const pgPart = s.app ? `  postgres ${pgUs.toFixed(1)} µs/req (${pids.length} backends)` : '';
    console.log(`round ${r} ${s.name.padEnd(8)} ${w.rps.toFixed(0).padStart(7)} req/s  p99 ${w.p99}  node ${nodeUs.toFixed(1)} µs/req${pgPart}${w.non2xx ? `  NON-2XX ${w.non2xx}` : ''}`);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const raw = results.get('raw');
const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
console.log(`\nmedians of ${rounds} rounds, wrk -t1 -c${conns} -d${seconds}s, ${new Date().toISOString()}, load average ${load}`);
for (const [name, xs] of results) {
  const ratios = xs.map((x, i) => (x.rps / raw[i].rps).toFixed(2)).join(' ');
  const rps = median(xs.map((x) => x.rps));
  console.log(`${name.padEnd(8)} ${rps.toFixed(0).padStart(7)} req/s  ${(rps / median(raw.map((x) => x.rps))).toFixed(2)}x raw (per round: ${ratios})  node ${median(xs.map((x) => x.nodeUs)).toFixed(1)} µs/req  postgres ${median(xs.map((x) => x.pgUs)).toFixed(1)} µs/req`);
}
for (const s of servers) s.child.kill('SIGTERM');
// A profile is written when the process exits, after its graceful close.
await Promise.all(servers.map((s) => (s.child.exitCode !== null ? undefined : new Promise((r) => s.child.once('exit', r)))));
for (const [label] of builds) await admin.query(`DROP SCHEMA IF EXISTS "rw_pgm_${label}" CASCADE`);
await admin.end();
