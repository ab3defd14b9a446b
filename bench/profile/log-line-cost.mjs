// What one request line costs the server, in CPU µs (the process's utime+stime, the writer's thread
// included), measured in one process in alternating rounds: the line as Restwell wrote it before
// (request.log.info through pino, a write(2) per line) and as it writes it now (logRequest into
// jsonLogDestination: one template, batched, written asynchronously), both to a file, each line from
// a per-request child logger as Fastify makes one (its cost, "child only", is paid with logging off too).
//
//   npm run build && node bench/profile/log-line-cost.mjs [--rounds 7] [--lines 200000]
import { openSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import { jsonLogDestination } from '../../dist/app/ops/json-log-destination.js';
import { logRequest } from '../../dist/app/ops/request-log-line.js';
import { median, opt } from './harness.mjs';

const rounds = Number(opt('rounds', 7));
const lines = Number(opt('lines', 200_000));
const file = join('/tmp', `rw-log-line-cost-${process.pid}.log`);
const redact = { paths: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization', 'request.headers.authorization', 'req.body.client_secret', 'body.client_secret', 'res.headers["set-cookie"]'], censor: '[redacted]' };
const url = '/characters/1';

const loggers = {
  'child only': pino({ level: 'info', redact }, { write() {} }),
  'before: pino, a write per line': pino({ level: 'info', redact }, pino.destination({ dest: file, sync: true })),
  'now: template, batched, async': pino({ level: 'info', redact }, jsonLogDestination(openSync(file, 'a'))),
  'template, not written': pino({ level: 'info', redact }, { write() {} }),
};
const variants = {
  'child only': () => {},
  'before: pino, a write per line': (request, status, ms) => {
    const rounded = Math.round(ms * 10) / 10;
    request.log.info({ method: request.method, url: request.url, status, ms: rounded }, `${request.method} ${request.url} ${status} ${rounded}ms`);
  },
  'now: template, batched, async': (request, status, ms) => logRequest(request, status, ms),
  'template, not written': (request, status, ms) => logRequest(request, status, ms),
};

async function run(name) {
  const root = loggers[name];
  const log = variants[name];
  const start = process.cpuUsage();
  for (let i = 0; i < lines; i++) {
    const request = { method: 'GET', url, log: root.child({ reqId: `req-${i}` }, {}) };
    log(request, 200, 0.4321);
    // Let the event loop turn, as it does between requests under load (timers, the writer's callbacks).
    if (i % 32 === 31) await new Promise((r) => setImmediate(r));
  }
  await new Promise((r) => root.flush(() => r()));
  const used = process.cpuUsage(start);
  return (used.user + used.system) / lines;
}

const results = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
for (let r = 0; r < rounds; r++) for (const name of Object.keys(variants)) results[name].push(await run(name));
const base = median(results['child only']);
console.log(`medians of ${rounds} rounds of ${lines} lines, CPU µs per line (the writer's thread included), ${new Date().toISOString()}`);
for (const [name, xs] of Object.entries(results)) console.log(`${name.padEnd(32)} ${median(xs).toFixed(2)} µs   over child only: ${(median(xs) - base).toFixed(2)} µs`);
rmSync(file, { force: true });
