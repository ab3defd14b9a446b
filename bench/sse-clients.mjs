// Event stream clients in a process of their own (forked by scenarios/sse-load.ts), so counting a
// thousand streams' events does not compete with the bench process for its event loop. Usage:
//   node sse-clients.mjs PORT KEY COUNT ADDRESS[,ADDRESS...]
// Opens COUNT `GET /events/stream` connections, spread over the local ADDRESSes (each a loopback address
// the server sees as a different client, so its per-address connection cap is not the limit), and counts
// the events each one receives. Talks to its parent over the IPC channel:
//   → { type: 'ready', open }                       all streams answered 200
//   → { type: 'failed', message }                   a stream could not be opened
//   ← { type: 'await', count, timeoutMs }           reply once every open client has `count` events, or at the timeout:
//   → { type: 'counts', ... }                       see snapshot()
// It exits when the parent goes away.
import { connect } from 'node:net';

const [port, key, countArg, addressArg] = process.argv.slice(2);
const COUNT = Number(countArg);
const ADDRESSES = addressArg.split(',');
/** Connections opened at once: a thousand at once would overflow the server's listen backlog and wait on SYN retries. */
const BATCH = 100;
/** An event frame starts with its id line; chunked framing lines (hex sizes) never hold it. */
const MARK = Buffer.from('\nid: ');
const HEAD_END = Buffer.from('\r\n\r\n');

/** @typedef {{ received: number, closed: boolean, tail: Buffer }} Client */
/** @type {Client[]} */
const clients = [];
/** @type {{ count: number, reached: number, done: () => void } | undefined} */
let waiting;

/**
 * Counts `MARK` in `tail + chunk` without copying the chunk; keeps the last bytes for a mark split across chunks.
 * @param {Client} client
 * @param {Buffer} chunk
 */
function count(client, chunk) {
  let n = 0;
  const glued = client.tail.length ? Buffer.concat([client.tail, chunk.subarray(0, MARK.length - 1)]) : undefined;
  if (glued) for (let at = glued.indexOf(MARK); at !== -1; at = glued.indexOf(MARK, at + 1)) if (at < client.tail.length) n++;
  for (let at = chunk.indexOf(MARK); at !== -1; at = chunk.indexOf(MARK, at + MARK.length)) n++;
  const last = chunk.length >= MARK.length - 1 ? chunk : Buffer.concat([client.tail, chunk]);
  client.tail = Buffer.from(last.subarray(Math.max(0, last.length - (MARK.length - 1))));
  return n;
}

/** @param {string} address */
function open(address) {
  return new Promise((resolve, reject) => {
    const socket = connect({ port: Number(port), host: '127.0.0.1', localAddress: address });
    /** @type {Client} */
    const client = { received: 0, closed: false, tail: Buffer.alloc(0) };
    /** @type {Buffer | undefined} */
    let head = Buffer.alloc(0);
    socket.on('error', reject);
    socket.on('close', () => {
      client.closed = true;
      if (waiting) check();
    });
    socket.on('data', (/** @type {Buffer} */ chunk) => {
      if (head) {
        head = Buffer.concat([head, chunk]);
        const end = head.indexOf(HEAD_END);
        if (end === -1) return;
        const status = head.subarray(0, head.indexOf('\r\n')).toString();
        if (!status.startsWith('HTTP/1.1 200')) return reject(new Error(`a stream got ${status}: ${head.subarray(end + 4, end + 300).toString()}`));
        chunk = head.subarray(end + 2);
        head = undefined;
        clients.push(client);
        resolve(client);
      }
      const n = count(client, chunk);
      if (!n) return;
      const before = client.received;
      client.received += n;
      if (waiting && before < waiting.count && client.received >= waiting.count && ++waiting.reached >= clients.length) waiting.done();
    });
    socket.write(`GET /events/stream HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\nAuthorization: Bearer ${key}\r\n\r\n`);
  });
}

/**
 * What the parent learns: the fewest and most events any client has, how many are below `want`, how many closed.
 * @param {number} want
 */
function snapshot(want) {
  let min = Infinity;
  let max = 0;
  let behind = 0;
  let closed = 0;
  for (const c of clients) {
    min = Math.min(min, c.received);
    max = Math.max(max, c.received);
    if (c.received < want) behind++;
    if (c.closed) closed++;
  }
  return { type: 'counts', want, open: clients.length - closed, min: clients.length ? min : 0, max, behind, closed };
}

/** Ends a wait early when every client that is still open has its events (a closed one will get no more). */
function check() {
  const want = waiting?.count ?? 0;
  if (waiting && clients.every((c) => c.closed || c.received >= want)) waiting.done();
}

process.on('message', (/** @type {{ type?: string, count?: number, timeoutMs?: number }} */ msg) => {
  if (msg?.type !== 'await') return;
  const want = Number(msg.count);
  const timer = setTimeout(() => finish(), Number(msg.timeoutMs));
  const finish = () => {
    clearTimeout(timer);
    waiting = undefined;
    process.send?.(snapshot(want));
  };
  waiting = { count: want, reached: clients.filter((c) => c.received >= want).length, done: finish };
  check();
});
process.on('disconnect', () => process.exit(0));

try {
  for (let i = 0; i < COUNT; i += BATCH) {
    await Promise.all(Array.from({ length: Math.min(BATCH, COUNT - i) }, (_, k) => open(ADDRESSES[(i + k) % ADDRESSES.length])));
  }
  process.send?.({ type: 'ready', open: clients.length });
} catch (err) {
  process.send?.({ type: 'failed', message: String(/** @type {Error} */ (err)?.message ?? err) });
}
