import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { after, before, test } from 'node:test';
import type { RestwellServer } from '../../src/app/server.js';
import { PUBLIC_DEMO, testServer } from '../../src/test-support/test-server.js';

/** Low limits so that each attack is cut off quickly; the cap is small enough to reach with a few sockets. */
const LIMITS = { headersTimeout: '1s', requestTimeout: '2s', maxConnectionsPerClient: 3 };

let server: RestwellServer;
let port: number;
before(async () => {
  server = await testServer(undefined, { ...PUBLIC_DEMO, server: LIMITS });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  port = (server.app.server.address() as { port: number }).port;
});
after(() => server.close());

/** Upper bound on any one exchange, so a regression fails instead of hanging the suite. */
const GIVE_UP_MS = 15_000;

/** A parsed HTTP/1.1 response as it came off the wire. */
interface WireResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function parse(raw: string): WireResponse {
  const end = raw.indexOf('\r\n\r\n');
  assert.ok(end > 0, `no complete response in ${JSON.stringify(raw.slice(0, 200))}`);
  const [statusLine, ...lines] = raw.slice(0, end).split('\r\n');
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine.split(' ')[1]), headers, body: raw.slice(end + 4) };
}

/**
 * Opens a connection, lets `talk` write to it, and collects everything the server sends until it
 * closes the connection (a reset after the answer counts as closing).
 */
function exchange(talk: (socket: Socket) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => talk(socket));
    let out = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server kept the connection open; got so far: ${JSON.stringify(out.slice(0, 200))}`));
    }, GIVE_UP_MS);
    socket.on('data', (d) => (out += d.toString('latin1')));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(out);
    });
  });
}

/** Writes `chunks` one at a time, `everyMs` apart, while the connection stays writable. */
function drip(socket: Socket, chunks: string[], everyMs: number): void {
  const next = () => {
    const chunk = chunks.shift();
    if (chunk === undefined || socket.destroyed) return;
    socket.write(chunk);
    setTimeout(next, everyMs).unref();
  };
  next();
}

/** Asserts an RFC 9457 response as every error of the server carries it, and returns its body. */
function assertProblem(res: WireResponse, status: number, code: string): Record<string, unknown> {
  assert.equal(res.status, status, res.body);
  assert.match(res.headers['content-type'], /^application\/problem\+json/);
  assert.ok(res.headers.date && !Number.isNaN(Date.parse(res.headers.date)), 'a Date header');
  const body = JSON.parse(res.body);
  assert.equal(body.type, `http://127.0.0.1:${port}/problems/${code}`);
  assert.equal(body.status, status);
  assert.equal(typeof body.title, 'string');
  assert.equal(typeof body.detail, 'string');
  assert.ok(typeof body.instance === 'string' && body.instance.length > 0, 'an instance');
  return body;
}

test('a body dripped byte by byte is cut off with 408 once server.requestTimeout passes; nothing is stored', async () => {
  const json = JSON.stringify({ name: 'Dripping Dana' });
  const head = `POST /characters HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${json.length}\r\n\r\n`;
  // Sent in full, the body would take 8 s: far past the 2 s limit, well inside the give-up bound.
  const res = parse(await exchange((s) => drip(s, [head, ...json], 500)));
  const body = assertProblem(res, 408, 'request-timeout');
  assert.equal(body.instance, '/characters');
  const list = await server.app.inject({ url: '/characters?name=Dripping%20Dana' });
  assert.equal(list.json()._embedded.characters.length, 0);
});

test('headers dripped line by line are cut off with 408 once server.headersTimeout passes', async () => {
  const lines = ['GET /characters HTTP/1.1\r\n', ...Array.from({ length: 30 }, (_, i) => `X-Slow-${i}: a\r\n`)];
  assertProblem(parse(await exchange((s) => drip(s, lines, 300))), 408, 'request-timeout');
});

test('headers beyond 16 KiB are 431 problem+json, not a bare 400', async () => {
  const request = `GET /characters HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`;
  const body = assertProblem(parse(await exchange((s) => s.write(request))), 431, 'headers-too-large');
  assert.match(String(body.detail), /exceed 16 KiB/);
});

test('CONNECT gets a 501 problem (this is no proxy) whose type points here, not at the tunnel target', async () => {
  const res = parse(await exchange((s) => s.write('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n')));
  const body = assertProblem(res, 501, 'not-implemented');
  assert.match(String(body.detail), /CONNECT example\.com:443/);
});

test('a malformed request line is 400 problem+json with Date, an absolute type and the instance', async () => {
  const body = assertProblem(parse(await exchange((s) => s.write('GET /characters HTTP/9.9\r\nHost: x\r\n\r\n'))), 400, 'malformed-request');
  assert.equal(body.instance, '/characters');
});

test('HTTP/1.1 without Host is 400 problem+json; HTTP/1.0 without Host is served on the address it connected to', async () => {
  const body = assertProblem(parse(await exchange((s) => s.write('GET /characters HTTP/1.1\r\n\r\n'))), 400, 'malformed-request');
  assert.equal(body.instance, '/characters');
  assert.match(String(body.detail), /Host/);
  // Before, the problem type of a Host-less HTTP/1.0 request read "http:///problems/not-found".
  assertProblem(parse(await exchange((s) => s.write('GET /nowhere HTTP/1.0\r\n\r\n'))), 404, 'not-found');
});

test('one client gets server.maxConnectionsPerClient connections; the next is refused with 429 while those keep working', async () => {
  const keepAlive = 'GET /characters HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';
  const opened = await Promise.all([1, 2, 3].map(() => openKeepAlive()));
  for (const c of opened) assert.equal((await c.request(keepAlive)).status, 200);

  const refused = parse(await exchange((s) => s.write(keepAlive)));
  assertProblem(refused, 429, 'too-many-connections');
  assert.equal(refused.headers['retry-after'], '1');

  for (const c of opened) assert.equal((await c.request(keepAlive)).status, 200);
  // A closed connection frees its slot.
  opened.pop()!.socket.destroy();
  while ((await new Promise<number>((r, j) => server.app.server.getConnections((e, n) => (e ? j(e) : r(n))))) > 2) await new Promise((r) => setTimeout(r, 20));
  const again = await openKeepAlive();
  assert.equal((await again.request(keepAlive)).status, 200);
  for (const c of [...opened, again]) c.socket.destroy();
});

/** A kept-alive connection that sends one request at a time and reads each (Content-Length) response. */
async function openKeepAlive() {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  return {
    socket,
    request(raw: string): Promise<WireResponse> {
      return new Promise((resolve, reject) => {
        let out = '';
        const onData = (d: Buffer) => {
          out += d.toString('latin1');
          const end = out.indexOf('\r\n\r\n');
          if (end < 0) return;
          const res = parse(out);
          if (Buffer.byteLength(res.body, 'latin1') < Number(res.headers['content-length'] ?? 0)) return;
          socket.off('data', onData);
          resolve(res);
        };
        socket.on('data', onData);
        socket.once('close', () => reject(new Error(`closed; got ${JSON.stringify(out.slice(0, 200))}`)));
        socket.write(raw);
      });
    },
  };
}
