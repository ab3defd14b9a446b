import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { RestwellServer } from '../../src/app/server.js';
import { engines, testServer } from '../../src/test-support/test-server.js';
import { apiKey, AUTH_CONFIG, bearer } from './auth-support.js';
import { listen } from './stream-support.js';

/** The head of a response over a raw socket: its status line and header fields (names lower-cased), up to the blank line. */
function responseHead(port: number, request: string): Promise<{ status: string; headers: Map<string, string> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let text = '';
    socket.on('error', reject);
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      if (end === -1) return;
      socket.destroy();
      const [status, ...fields] = text.slice(0, end).split('\r\n');
      resolve({ status, headers: new Map(fields.map((f) => [f.slice(0, f.indexOf(':')).toLowerCase(), f.slice(f.indexOf(':') + 1).trim()])) });
    });
  });
}

for (const engine of engines) {
  describe(`HEAD /events/stream has GET's headers (${engine.name})`, () => {
    let server: RestwellServer;
    let port: number;
    let authorization: string;
    before(async () => {
      server = await testServer(engine, AUTH_CONFIG);
      port = await listen(server);
      authorization = bearer(await apiKey(server, ['events:read'], 'reader')).authorization;
    });
    after(() => server.close());

    test('no Content-Length on either (a stream has no length), and the same fields otherwise', async () => {
      const ask = (method: string) => responseHead(port, `${method} /events/stream HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\nAuthorization: ${authorization}\r\n\r\n`);
      const get = await ask('GET');
      const head = await ask('HEAD');
      assert.equal(get.status, 'HTTP/1.1 200 OK');
      assert.equal(head.status, get.status);
      assert.equal(get.headers.get('content-length'), undefined);
      assert.equal(head.headers.get('content-length'), undefined, 'HEAD must not announce an empty body GET does not have');
      assert.equal(head.headers.get('content-type'), 'text/event-stream; charset=utf-8');
      // Date and the rate-limit counters change between two requests; Node frames no body of a HEAD
      // response, so it leaves out Transfer-Encoding (RFC 9112 §6.1 allows either). Every other field is GET's.
      const names = (h: Map<string, string>) => [...h.keys()].filter((n) => n !== 'date' && n !== 'transfer-encoding').sort();
      assert.deepEqual(names(head.headers), names(get.headers));
      for (const name of names(get.headers).filter((n) => n !== 'ratelimit')) assert.equal(head.headers.get(name), get.headers.get(name), name);
    });
  });
}
