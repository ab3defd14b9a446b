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
// node --import tsx bench/profile/summarize.ts FILE --skip N).
import { copyFileSync, existsSync } from 'node:fs';
import { cpuMs, loadAverage, median, ms, opt, root, startRestwell, stop, wrk as runWrk } from './harness.mjs';

const rounds = Number(opt('rounds', 3));
const seconds = Number(opt('seconds', 10));
const only = opt('only', 'filtered,sorted').split(',');
const baseRoot = opt('base', undefined);
const profileDir = opt('profile', undefined);
const configFile = opt('config', undefined);
const dbs = { filtered: opt('db1m', undefined), sorted: opt('db1k', undefined), byid: opt('db1k', undefined) };
// byid: GET of one record, the floor every request pays (HTTP, routing, hooks), to compare the pages with.
const paths = { filtered: '/characters?limit=20&sort=name&name[startsWith]=C', sorted: '/characters?limit=20&sort=name', byid: '/characters/1' };

const restwell = (name, cwd, db, port, profile) => startRestwell(name, { port, config: configFile, db, cwd, probe: '/characters?limit=1', profileDir: profile });

/** wrk's run, with its p50 and p99 in ms. */
function wrk(url, duration = seconds) {
  const w = runWrk(url, { seconds: duration });
  return { ...w, p50: ms(w.p50), p99: ms(w.p99) };
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
    const base = await restwell(`base-${kind}`, baseRoot, copy, port++, undefined);
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
console.log(`\nmedians of ${rounds} rounds, wrk -t1 -c32 -d${seconds}s, ${new Date().toISOString()}, load ${loadAverage()}`);
for (const [name, xs] of results) {
  const m = (k) => median(xs.map((x) => x[k]));
  console.log(`${name.padEnd(16)} ${m('rps').toFixed(0).padStart(6)} req/s  p50 ${m('p50').toFixed(2)} ms  p99 ${m('p99').toFixed(2)} ms  cpu ${m('us').toFixed(0)} µs/req (sys ${m('sys').toFixed(0)})`);
}
await stop(scenarios.map((s) => s.server));
