// The receiver of the outbound webhook rows: plain node:http that answers every delivery (any POST
// outside /_) with 204 as soon as its body has arrived, and counts them. Usage: node webhook-receiver.mjs PORT
//
// Arrival times are `performance.timeOrigin + performance.now()` (ms since the epoch, sub-ms
// resolution) taken when a request's headers are parsed, so the bench process can set them against
// its own clock. Control routes (the bench's, never a delivery):
//   GET  /_stats                       → { count, distinct, first, last, nth: null }
//   GET  /_wait?count=N&timeoutMs=T    → the same once N distinct webhook-ids have arrived (or T passed);
//                                        `nth` is the arrival time of the N-th distinct one
//   POST /_reset                       → forgets everything counted so far (204)
import { createServer } from 'node:http';

const clock = () => performance.timeOrigin + performance.now();

let count = 0;
/** @type {Set<string>} */
let seen = new Set();
/** Arrival time of each distinct webhook-id, in order of first arrival. */
/** @type {number[]} */
let firsts = [];
let first = 0;
let last = 0;
/** @type {Array<{ target: number; done: () => void }>} */
let waiters = [];

/** @param {number | null} [nth] */
function stats(nth = null) {
  return JSON.stringify({ count, distinct: seen.size, first, last, nth });
}

function wakeWaiters() {
  if (waiters.length === 0) return;
  const ready = waiters.filter((w) => seen.size >= w.target);
  if (ready.length === 0) return;
  waiters = waiters.filter((w) => seen.size < w.target);
  for (const w of ready) w.done();
}

const server = createServer((req, res) => {
  const url = req.url ?? '/';
  if (url.startsWith('/_')) {
    req.resume();
    const q = new URL(url, 'http://receiver');
    const json = (/** @type {string} */ body) => res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    if (q.pathname === '/_reset') {
      count = 0;
      seen = new Set();
      firsts = [];
      first = 0;
      last = 0;
      res.writeHead(204).end();
    } else if (q.pathname === '/_wait') {
      const target = Number(q.searchParams.get('count'));
      const answer = () => json(stats(firsts[target - 1] ?? null));
      if (seen.size >= target) return answer();
      const waiter = { target, done: () => (clearTimeout(timer), answer()) };
      const timer = setTimeout(() => {
        waiters = waiters.filter((w) => w !== waiter);
        answer();
      }, Number(q.searchParams.get('timeoutMs') ?? 60_000));
      waiters.push(waiter);
    } else json(stats());
    return;
  }
  const at = clock();
  count += 1;
  if (first === 0) first = at;
  last = at;
  const id = String(req.headers['webhook-id'] ?? `anonymous-${count}`);
  if (!seen.has(id)) {
    seen.add(id);
    firsts.push(at);
    wakeWaiters();
  }
  req.on('data', () => {});
  req.on('end', () => res.writeHead(204).end());
});
server.keepAliveTimeout = 75_000;
server.listen(Number(process.argv[2]), '127.0.0.1');
process.on('SIGTERM', () => process.exit(0));
