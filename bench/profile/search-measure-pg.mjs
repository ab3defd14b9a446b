// Measures the two PostgreSQL rows over 1M characters (bench/scenarios/search.ts): `q=` with a new
// six-digit term each request (bench/wrk/search.lua) and the filtered sorted page with a new
// `number[ne]` each request (bench/wrk/get.lua), for one or more builds in alternating rounds in one
// session, with the CPU per request of the Node server and of its PostgreSQL backends (found by the
// application_name each build's database URL sets), as measure-pg.mjs does for reads by id.
// The rows are loaded once into a schema that every build reads (the rows are only read):
//
//   node --import tsx bench/profile/search-seed-pg.ts rw_search_1m       # once, ~40 s
//   npm run build && node bench/profile/search-measure-pg.mjs --schema rw_search_1m \
//     [--builds cur=.,base=/tmp/rw-base] [--only search,filtered] [--rounds 3] [--seconds 8] [--conns 32]
//     (a build given as label=dir:N runs with pool_max=N, e.g. --builds p10=.:10,p4=.:4)
// Database: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test.
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { backendPids, cpuMsOr0, freshDir, loadAverage, median, ms, opt, root, startRestwell, stop, writeCharactersConfig } from './harness.mjs';

const rounds = Number(opt('rounds', 3));
const seconds = Number(opt('seconds', 8));
const conns = Number(opt('conns', 32));
const schema = opt('schema', 'rw_search_1m');
const only = opt('only', 'search,filtered').split(',');
const builds = opt('builds', 'cur=.').split(',').map((b) => b.split('=')).map(([label, spec]) => {
  const [dir, pool] = spec.split(':');
  return [label, resolve(root, dir), pool];
});
const baseUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const work = freshDir(`/tmp/rw-search-pg-${process.pid}`);
const wrkDir = join(root, 'bench', 'wrk');

const rows = {
  search: ['search.lua', '/characters?limit=20&q=', '100000'],
  filtered: ['get.lua', '/characters?limit=20&sort=name&name%5BstartsWith%5D=C&number%5Bne%5D={n}', '100000', '0'],
};

const admin = new pg.Client(baseUrl);
await admin.connect();
const cfg = writeCharactersConfig(join(work, 'public.json'));

const backends = (app) => backendPids(admin, app);

const servers = [];
let port = Number(opt('ports', 18390));
for (const [label, dir, pool] of builds) {
  const app = `rw_search_${label}`;
  const url = new URL(baseUrl);
  url.searchParams.set('schema', schema);
  url.searchParams.set('application_name', app);
  if (pool) url.searchParams.set('pool_max', pool);
  const server = await startRestwell(label, { port: port++, config: cfg, db: url.toString(), cwd: dir, probe: '/characters?limit=1' });
  servers.push({ ...server, app });
}

// wrk runs in bench/wrk, where its scripts find common.lua (and wrk's own parse of its output, as harness.mjs's).
function wrk(url, row, d = seconds) {
  const [script, ...args] = rows[row];
  const out = execFileSync('wrk', ['-t1', `-c${conns}`, `-d${d}s`, '--latency', '-s', script, url, '--', ...args], { cwd: wrkDir, encoding: 'utf8' });
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)[1]),
    total: Number(/(\d+) requests in/.exec(out)[1]),
    p50: /^\s+50%\s+(\S+)/m.exec(out)?.[1],
    p99: /^\s+99%\s+(\S+)/m.exec(out)?.[1],
    non2xx: /Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1],
  };
}
for (const s of servers) for (const row of only) wrk(s.url, row, 3);
const results = new Map();
for (let r = 1; r <= rounds; r++) {
  for (const row of only) {
    for (const s of servers) {
      const before = new Map((await backends(s.app)).map((pid) => [pid, cpuMsOr0(pid)]));
      const node0 = cpuMsOr0(s.child.pid);
      const w = wrk(s.url, row);
      const nodeUs = ((cpuMsOr0(s.child.pid) - node0) / w.total) * 1000;
      const pids = [...new Set([...before.keys(), ...(await backends(s.app))])];
      const pgUs = (pids.reduce((sum, pid) => sum + cpuMsOr0(pid) - (before.get(pid) ?? 0), 0) / w.total) * 1000;
      const key = `${row} ${s.name}`;
      if (!results.has(key)) results.set(key, []);
      results.get(key).push({ ...w, nodeUs, pgUs });
      console.log(`round ${r} ${key.padEnd(16)} ${w.rps.toFixed(0).padStart(6)} req/s  p50 ${w.p50}  p99 ${w.p99}  node ${nodeUs.toFixed(1)} µs/req  postgres ${pgUs.toFixed(1)} µs/req${w.non2xx ? `  NON-2XX ${w.non2xx}` : ''}`);
    }
  }
}
console.log(`\nmedians of ${rounds} rounds, wrk -t1 -c${conns} -d${seconds}s, ${new Date().toISOString()}, load average ${loadAverage()}`);
for (const [key, xs] of results) {
  const m = (f) => median(xs.map(f));
  console.log(`${key.padEnd(16)} ${m((x) => x.rps).toFixed(0).padStart(6)} req/s  p50 ${m((x) => ms(x.p50)).toFixed(2)} ms  p99 ${m((x) => ms(x.p99)).toFixed(2)} ms  node ${m((x) => x.nodeUs).toFixed(1)} µs/req  postgres ${m((x) => x.pgUs).toFixed(1)} µs/req`);
}
await stop(servers);
await admin.end();
