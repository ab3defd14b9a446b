// How much identical server processes differ: N Restwell servers of one build, same config and data,
// request log on (a file each), each warmed and then measured in R rounds of GET /characters/1
// under wrk, its CPU read from /proc/<pid>/stat: CPU µs per request, per server. A process that
// stays slow in every round is in a state of its own (the JIT's), not unlucky in one window;
// src/cli/settle-tick-objects.ts says what was found that way.
//
//   npm run build && node bench/profile/process-spread.mjs [--n 8] [--rounds 3] [--seconds 3]
//     [--cwd DIR]          a built checkout of another commit (default: this one)
//     [--node-args "…"]    flags for each server's node, e.g. "--perf-basic-prof"
//     [--perf]             then `perf record` the fastest and the slowest for 4 s under load,
//                          and write each one's top symbols to /tmp/rw-spread-<pid>/perf-<server>.txt
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpuMs, freshDir, loadAverage, median, opt, root, seedCharacters, startRestwell, stop, writeCharactersConfig, wrk } from './harness.mjs';

const n = Number(opt('n', 8));
const rounds = Number(opt('rounds', 3));
const seconds = Number(opt('seconds', 3));
const cwd = opt('cwd', root);
const nodeArgs = opt('node-args', '').split(' ').filter(Boolean);
const perf = process.argv.includes('--perf');
const ports = Number(opt('ports', 18600));
const work = freshDir(`/tmp/rw-spread-${process.pid}`);

const config = join(work, 'characters.json');
writeCharactersConfig(config, 'public');
console.log(`load average ${loadAverage()}; ${n} servers of ${cwd}${nodeArgs.length ? ` with ${nodeArgs.join(' ')}` : ''}`);
const servers = [];
for (let i = 0; i < n; i++) {
  const server = await startRestwell(`s${i}`, { port: ports + i, config, db: join(work, `s${i}.db`), cwd, probe: '/characters', nodeArgs, logFile: join(work, `s${i}.log`) });
  await seedCharacters(server.url, 1000);
  servers.push(server);
}
for (const s of servers) wrk(`${s.url}/characters/1`, { seconds: 2 });
const results = servers.map(() => []);
for (let r = 0; r < rounds; r++) {
  for (const [i, s] of servers.entries()) {
    const before = cpuMs(s.child.pid).all;
    const w = wrk(`${s.url}/characters/1`, { seconds });
    results[i].push({ rps: w.rps, us: ((cpuMs(s.child.pid).all - before) / w.total) * 1000 });
  }
}
const rows = results.map((xs, i) => ({ i, rps: median(xs.map((x) => x.rps)), us: median(xs.map((x) => x.us)), all: xs.map((x) => x.us.toFixed(1)) }));
for (const row of rows) console.log(`s${row.i}  ${row.rps.toFixed(0).padStart(6)} req/s  ${row.us.toFixed(1).padStart(5)} µs/request  (rounds: ${row.all.join(' ')})`);
const us = rows.map((r) => r.us).sort((a, b) => a - b);
console.log(`µs/request: fastest ${us[0].toFixed(1)}, median ${median(us).toFixed(1)}, slowest ${us[us.length - 1].toFixed(1)}; ${new Date().toISOString()}`);

if (perf) {
  const byCost = [...rows].sort((a, b) => a.us - b.us);
  for (const row of [byCost[0], byCost[byCost.length - 1]]) {
    const s = servers[row.i];
    const data = join(work, `perf-s${row.i}.data`);
    const recorder = spawn('perf', ['record', '-e', 'cpu-clock', '-F', '2999', '-p', String(s.child.pid), '-o', data, '--', 'sleep', '4'], { stdio: 'ignore' });
    wrk(`${s.url}/characters/1`, { seconds: 5 });
    await new Promise((resolve) => recorder.once('exit', resolve));
    const report = spawnSync('perf', ['report', '-i', data, '--no-children', '--sort', 'sym', '--stdio'], { encoding: 'utf8', maxBuffer: 64 << 20 });
    const top = report.stdout.split('\n').filter((l) => l.trim() && !l.startsWith('#')).slice(0, 45);
    writeFileSync(join(work, `perf-s${row.i}.txt`), `${row.us.toFixed(1)} µs/request\n${top.join('\n')}\n`);
    console.log(`perf of s${row.i} (${row.us.toFixed(1)} µs/request): ${join(work, `perf-s${row.i}.txt`)}`);
  }
}
await stop(servers);
