// Measures the search row (`GET /characters?limit=20&q=<six digits>`, a new term each request) and the
// uncached filtered page (`?limit=20&sort=name&name[startsWith]=C&number[ne]={n}`) over 1M rows with wrk,
// this checkout's build against a built checkout of another commit, in alternating rounds in one
// session. Reads each server's CPU (utime+stime from /proc/<pid>/stat) around every wrk run.
//
//   npm run build && node bench/profile/search-measure.mjs --db FILE --config FILE --base DIR --base-db FILE
//       [--rounds 5] [--seconds 5] [--only search,page] [--port 28801]
//
// Each build serves its own database (the search index's format may differ between them): make them
// with bench/seed-sqlite.ts's seedSqlite and bench/data.ts's writeRestwellConfig, each with its own
// checkout's code (a database of the other format is rebuilt at start, once). The servers run at
// default settings (a request line per request, to a file).
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { cpuMs, median, ms, opt, root, startRestwell, stop } from './harness.mjs';

const rounds = Number(opt('rounds', 5));
const seconds = Number(opt('seconds', 5));
const only = opt('only', 'search,page').split(',');
const config = opt('config', undefined);
const port = Number(opt('port', 28801));
if (!config || !opt('db', undefined) || !opt('base', undefined) || !opt('base-db', undefined)) throw new Error('--db, --config, --base and --base-db are required');
const wrkDir = join(root, 'bench', 'wrk');

/** wrk with a script and its arguments (which wrk takes after the URL). */
function wrk(url, script, args) {
  const out = execFileSync('wrk', ['-t1', '-c32', `-d${seconds}s`, '--latency', '-s', script, url, '--', ...args], { encoding: 'utf8', cwd: wrkDir });
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)[1]),
    total: Number(/(\d+) requests in/.exec(out)[1]),
    p50: ms(/^\s+50%\s+(\S+)/m.exec(out)?.[1]),
    p99: ms(/^\s+99%\s+(\S+)/m.exec(out)?.[1]),
    non2xx: /Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1],
  };
}

const kinds = {
  search: ['search.lua', ['/characters?limit=20&q=', '100000']],
  page: ['get.lua', ['/characters?limit=20&sort=name&name%5BstartsWith%5D=C&number%5Bne%5D={n}', '100000', '0']],
};
const servers = [
  { name: 'this', server: await startRestwell('search-this', { port, config, db: opt('db'), cwd: root, probe: '/characters?limit=1', logFile: '/tmp/search-measure-this.log' }) },
  { name: 'base', server: await startRestwell('search-base', { port: port + 1, config, db: opt('base-db'), cwd: opt('base'), probe: '/characters?limit=1', logFile: '/tmp/search-measure-base.log' }) },
];
// A warm-up of each, so the JIT and the page cache have settled before anything is counted.
for (const k of only) for (const s of servers) wrk(`${s.server.url}/characters`, ...kinds[k]);
const results = new Map();
for (let r = 1; r <= rounds; r++) {
  for (const k of only) {
    for (const s of r % 2 ? servers : [...servers].reverse()) {
      const before = cpuMs(s.server.child.pid);
      const w = wrk(`${s.server.url}/characters`, ...kinds[k]);
      const us = ((cpuMs(s.server.child.pid).all - before.all) / w.total) * 1000;
      const key = `${k} ${s.name}`;
      if (!results.has(key)) results.set(key, []);
      results.get(key).push({ ...w, us });
      console.log(`round ${r} ${key.padEnd(12)} ${w.rps.toFixed(0).padStart(6)} req/s  p50 ${w.p50.toFixed(2)} ms  p99 ${w.p99.toFixed(2)} ms  cpu ${us.toFixed(0)} µs/req${w.non2xx ? `  NON-2XX ${w.non2xx}` : ''}`);
    }
  }
}
console.log(`\nmedians of ${rounds} rounds, wrk -t1 -c32 -d${seconds}s`);
for (const [key, v] of results) {
  const m = (f) => median(v.map(f));
  console.log(`${key.padEnd(12)} ${m((x) => x.rps).toFixed(0).padStart(6)} req/s  p50 ${m((x) => x.p50).toFixed(2)} ms  p99 ${m((x) => x.p99).toFixed(2)} ms  cpu ${m((x) => x.us).toFixed(0)} µs/req`);
}
await stop(servers.map((s) => s.server));
