// Measures list pages (issue 12's `GET /characters?limit=20&sort=name&name[startsWith]=C` over 1M
// rows, and the sorted page over 1k rows) with wrk against this checkout's build and, optionally, a
// built checkout of another commit, in alternating rounds in one session. Reads each server's CPU
// (utime+stime from /proc/<pid>/stat) around every wrk run: CPU µs per request, with wrk's p50/p99.
//
//   npm run build && node bench/profile/list-measure.mjs --db1m FILE --db1k FILE --config FILE
//       [--base DIR] [--rounds 3] [--seconds 10] [--only filtered,sorted,byid] [--profile DIR] [--port 28710]
//
// The databases come from bench/seed-sqlite.ts (seedSqlite with bench/data.ts's config). The base build
// serves its own copy of each database (copied next to the original), never under load at the same
// time as this one. --profile runs this checkout's server under node --cpu-prof (summarize with
// summarize.mjs --skip N).
import { spawn, execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const root = resolve(import.meta.dirname, '../..');
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i < 0 ? dflt : args[i + 1];
};
const rounds = Number(opt('rounds', 3));
const seconds = Number(opt('seconds', 10));
const only = opt('only', 'filtered,sorted').split(',');
const baseRoot = opt('base', undefined);
const profileDir = opt('profile', undefined);
const configFile = opt('config', undefined);
const dbs = { filtered: opt('db1m', undefined), sorted: opt('db1k', undefined), byid: opt('db1k', undefined) };
// byid: GET of one record, the floor every request pays (HTTP, routing, hooks), to compare the pages with.
const paths = { filtered: '/characters?limit=20&sort=name&name[startsWith]=C', sorted: '/characters?limit=20&sort=name', byid: '/characters/1' };

const children = [];
process.on('exit', () => children.forEach((c) => c.exitCode === null && c.kill('SIGKILL')));

async function restwell(name, cwd, db, port, profile) {
  const prof = profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${name}.cpuprofile`] : [];
  const argv = [...prof, 'bin/restwell.js', 'serve', '--config', configFile, '--port', String(port), '--host', '127.0.0.1', '--db', db];
  const child = spawn(process.execPath, argv, { cwd, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, LOG_LEVEL: 'warn' } });
  children.push(child);
  for (let i = 0; i < 400; i++) {
    // Another process on the port would answer for a server that could not listen.
    if (child.exitCode !== null) throw new Error(`${name} exited (${child.exitCode}); is port ${port} taken?`);
    try {
      await fetch(`http://127.0.0.1:${port}/characters?limit=1`).then((r) => r.arrayBuffer());
      return { name, child, url: `http://127.0.0.1:${port}` };
    } catch {
      await sleep(50);
    }
  }
  throw new Error(`${name} did not start`);
}

/** utime + stime of a process, and stime alone (the kernel's share: socket writes), in ms (clock ticks are 10 ms on Linux). */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return { all: (Number(fields[11]) + Number(fields[12])) * 10, sys: Number(fields[12]) * 10 };
}

/** wrk's latency percentiles are printed with a unit (us, ms, s); in ms. */
function ms(text) {
  const m = /^([\d.]+)(us|ms|s)$/.exec(text ?? '');
  if (!m) return NaN;
  return Number(m[1]) * { us: 0.001, ms: 1, s: 1000 }[m[2]];
}

function wrk(url, duration = seconds) {
  const out = execFileSync('wrk', ['-t1', '-c32', `-d${duration}s`, '--latency', url], { encoding: 'utf8' });
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)[1]);
  const total = Number(/(\d+) requests in/.exec(out)[1]);
  const p50 = ms(/^\s+50%\s+(\S+)/m.exec(out)?.[1]);
  const p99 = ms(/^\s+99%\s+(\S+)/m.exec(out)?.[1]);
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1];
  return { rps, total, p50, p99, non2xx };
}

const scenarios = [];
let port = Number(opt('port', 28710));
for (const kind of only) {
  if (!dbs[kind]) throw new Error(`--db${kind === 'filtered' ? '1m' : '1k'} is required for ${kind}`);
  const server = await restwell(`list-${kind}`, root, dbs[kind], port++, profileDir);
  scenarios.push({ name: `this ${kind}`, server, url: server.url + paths[kind] });
  if (baseRoot) {
    const copy = `${dbs[kind]}.base`;
    if (!existsSync(copy)) copyFileSync(dbs[kind], copy);
    const base = await restwell(`base-${kind}`, baseRoot, copy, port++, false);
    scenarios.push({ name: `base ${kind}`, server: base, url: base.url + paths[kind] });
  }
}

// A warm-up of each, so the JIT and the page cache have settled before anything is counted.
for (const s of scenarios) wrk(s.url, 3);
const results = new Map(scenarios.map((s) => [s.name, []]));
for (let r = 1; r <= rounds; r++) {
  for (const s of scenarios) {
    const before = cpuMs(s.server.child.pid);
    const w = wrk(s.url);
    const after = cpuMs(s.server.child.pid);
    const us = ((after.all - before.all) / w.total) * 1000;
    const sys = ((after.sys - before.sys) / w.total) * 1000;
    results.get(s.name).push({ ...w, us, sys });
    console.log(`round ${r} ${s.name.padEnd(16)} ${w.rps.toFixed(0).padStart(6)} req/s  p50 ${w.p50.toFixed(2)} ms  p99 ${w.p99.toFixed(2)} ms  cpu ${us.toFixed(0)} µs/req (sys ${sys.toFixed(0)})${w.non2xx ? `  NON-2XX ${w.non2xx}` : ''}`);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`\nmedians of ${rounds} rounds, wrk -t1 -c32 -d${seconds}s, ${new Date().toISOString()}, load ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
for (const [name, xs] of results) {
  const m = (k) => median(xs.map((x) => x[k]));
  console.log(`${name.padEnd(16)} ${m('rps').toFixed(0).padStart(6)} req/s  p50 ${m('p50').toFixed(2)} ms  p99 ${m('p99').toFixed(2)} ms  cpu ${m('us').toFixed(0)} µs/req (sys ${m('sys').toFixed(0)})`);
}
for (const s of scenarios) s.server.child.kill('SIGTERM');
await sleep(1500);
