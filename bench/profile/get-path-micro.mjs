// Pieces of GET /characters/{id} measured alone, in CPU ns per request (utime+stime of this process, a
// writer's thread included), in alternating rounds: each pair is the shape before and after a change
// (or a variant tried), so a difference of tens of ns shows, which no server-level run here can.
//   - the route's onRequest hooks through Fastify's own hook runner: nosniff and the guard as an
//     `async` hook (before), or as a callback for an anonymous request to an open route (now);
//   - an async handler that resolves with the reply it sent (a thenable: a job and a reply.then call)
//     or with nothing;
//   - the request log's batch handed to SonicBoom encoded (Buffer.from, contentMode buffer: now) or as
//     the string (contentMode utf8: SonicBoom measures it, node encodes it in the write).
//
//   npm run build && node bench/profile/get-path-micro.mjs [--rounds 9]
import { openSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import pino from 'pino';
import { nosniff } from '../../dist/http/nosniff.js';
import { median, opt, root } from './harness.mjs';

const rounds = Number(opt('rounds', 9));
const { onRequestHookRunner } = createRequire(join(root, 'node_modules/fastify/fastify.js'))('./lib/hooks.js');

/** Runs `once(next)` n times, letting the event loop turn every 64 (as between requests under load). */
const repeat = (n, once) =>
  new Promise((resolve) => {
    let i = 0;
    const step = () => (++i === n ? resolve() : i % 64 === 0 ? setImmediate(go) : go());
    const go = () => once(step);
    go();
  });

async function cpuNsPer(n, fn) {
  const start = process.cpuUsage();
  await fn();
  const used = process.cpuUsage(start);
  return ((used.user + used.system) * 1000) / n;
}

// 1. The onRequest hooks of an anonymous GET of a public record.
const request = { headers: {} };
const reply = { sent: false, headers() {}, header() {} };
const fullGuard = async () => {};
const asyncGuard = async (req) => {
  if (req.headers.authorization === undefined) return;
  return fullGuard();
};
const callbackGuard = (req, _reply, done) => {
  if (req.headers.authorization !== undefined) return fullGuard();
  done();
  return undefined;
};
const hooks = (guard) => (next) => onRequestHookRunner([nosniff, guard], request, reply, () => queueMicrotask(next));

// 2. The handler's promise, after an awaited store read.
class SentReply {
  sent = true;
  then(fulfilled) {
    fulfilled();
  }
}
const read = async () => 1;
const resolvesReply = async () => {
  await read();
  return new SentReply();
};
const resolvesNothing = async () => {
  await read();
  const sent = new SentReply();
  return sent.sent ? undefined : sent;
};
const handler = (h) => (next) => h().then(next);

// 3. The request log's batches.
const file = join('/tmp', `rw-get-path-micro-${process.pid}.log`);
async function logLines(mode, n) {
  const sonic = pino.destination({ dest: openSync(file, 'a'), sync: false, minLength: 1, maxWrite: 64 * 1024, contentMode: mode });
  let pending = '';
  const handOver = () => {
    if (pending) sonic.write(mode === 'buffer' ? Buffer.from(pending) : pending);
    pending = '';
  };
  for (let i = 0; i < n; i++) {
    const line = `{"level":30,"time":${Date.now()},"pid":1234,"hostname":"host","reqId":"req-${i}","method":"GET","url":"/characters/${i % 1000}","status":200,"ms":0.${i % 10},"msg":"GET /characters/${i % 1000} 200 0.${i % 10}ms"}\n`;
    if (pending.length + line.length > 64 * 1024) handOver();
    pending += line;
    if (i % 32 === 31) await new Promise((r) => setImmediate(r));
  }
  handOver();
  await new Promise((r) => sonic.flush(() => r()));
  sonic.destroy();
  rmSync(file, { force: true });
}

const N = 400_000;
const pairs = {
  'onRequest: nosniff + guard': {
    'async guard (before)': () => repeat(N, hooks(asyncGuard)),
    'callback guard (now)': () => repeat(N, hooks(callbackGuard)),
  },
  'handler resolves with': {
    'the sent reply (before)': () => repeat(N, handler(resolvesReply)),
    'nothing (now)': () => repeat(N, handler(resolvesNothing)),
  },
  'log batch handed over': {
    'Buffer.from (now)': () => logLines('buffer', N / 2),
    'the string (tried)': () => logLines('utf8', N / 2),
  },
};

console.log(`medians of ${rounds} alternating rounds, CPU ns per request, ${new Date().toISOString()}`);
for (const [title, variants] of Object.entries(pairs)) {
  const names = Object.keys(variants);
  const n = title.startsWith('log') ? N / 2 : N;
  const results = names.map(() => []);
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 ? [1, 0] : [0, 1];
    for (const i of order) results[i].push(await cpuNsPer(n, variants[names[i]]));
  }
  const diff = median(results[1].map((x, i) => x - results[0][i]));
  console.log(`${title}: ${names.map((name, i) => `${name} ${median(results[i]).toFixed(0)}`).join(', ')}; second - first ${diff.toFixed(0)} ns`);
}
