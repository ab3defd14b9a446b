// The load generator's own ceiling: raw node:http (raw-http-server.mjs) under wrk -t1, wrk -t2 and
// autocannon inside this process (how the bench drove load before issue 12), in alternating rounds, with
// the server's CPU use over each run (1.00 = it had a full core: the server, not the generator, is the
// bottleneck). Usage: node bench/compare-generators.mjs [seconds per run, default 5] [rounds, default 3]
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const here = dirname(fileURLToPath(import.meta.url));
const seconds = Number(process.argv[2] ?? 5);
const rounds = Number(process.argv[3] ?? 3);

/** @returns {Promise<number>} */
const freePort = () =>
  new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (s.address());
      s.close(() => resolve(port));
    });
  });

/** CPU seconds (user + system) of a process so far. @param {number} pid */
const cpu = (pid) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
};

const port = await freePort();
const raw = spawn(process.execPath, [join(here, 'raw-http-server.mjs'), String(port)], { stdio: 'ignore' });
await new Promise((r) => setTimeout(r, 500));
const url = `http://127.0.0.1:${port}`;

/** @param {number} threads @param {number} [s] */
const wrk = async (threads, s = seconds) => {
  const out = execFileSync('wrk', [`-t${threads}`, '-c32', `-d${s}s`, '-s', 'get.lua', url, '--', '/characters/{n}', '1000', '0'], { cwd: join(here, 'wrk') }).toString();
  const line = out.split('\n').find((l) => l.startsWith('@@wrk ')) ?? '';
  return JSON.parse(line.slice(6)).requests / s;
};
let n = 0;
/** @param {number} [s] */
const ac = async (s = seconds) =>
  (await autocannon({ url, connections: 32, duration: s, requests: [{ setupRequest: (r) => ({ ...r, path: `/characters/${(n++ % 1000) + 1}` }) }] })).requests.average;

/** @type {Array<[string, () => Promise<number>]>} */
const generators = [
  ['wrk -t1', () => wrk(1)],
  ['wrk -t2', () => wrk(2)],
  ['autocannon (in-process)', () => ac()],
];
/** @type {Record<string, number[]>} */
const results = {};
try {
  await wrk(1, 2);
  await ac(2);
  for (let round = 0; round < rounds; round++) {
    for (const [name, run] of generators) {
      const load = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
      const before = cpu(/** @type {number} */ (raw.pid));
      const rps = await run();
      const server = (cpu(/** @type {number} */ (raw.pid)) - before) / seconds;
      (results[name] ??= []).push(rps);
      console.log(`${name.padEnd(24)} ${Math.round(rps).toLocaleString('en').padStart(7)} req/s   server ${server.toFixed(2)} cores   load average ${load}`);
    }
  }
  for (const [name, v] of Object.entries(results)) {
    const sorted = [...v].sort((a, b) => a - b);
    console.log(`${name.padEnd(24)} median ${Math.round(sorted[Math.floor(sorted.length / 2)]).toLocaleString('en')} req/s, best ${Math.round(sorted[sorted.length - 1]).toLocaleString('en')}`);
  }
} finally {
  raw.kill();
}
