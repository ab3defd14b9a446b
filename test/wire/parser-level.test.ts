import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { RestwellServer } from '../../src/app/server.js';
import { engines, testServer } from '../../src/test-support/test-server.js';

for (const engine of engines) {
  describe(`below the routes: what Node's parser refuses (${engine.name})`, () => {
    let server: RestwellServer;
    let port: number;
    before(async () => {
      server = await testServer(engine);
      await server.app.listen({ port: 0, host: '127.0.0.1' });
      port = (server.app.server.address() as { port: number }).port;
    });
    after(() => server.close());

    /** Sends raw bytes and returns the whole response (the server closes after answering). */
    function raw(request: string): Promise<string> {
      return new Promise((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => socket.end(request));
        let out = '';
        socket.on('data', (d) => (out += d));
        socket.on('close', () => resolve(out));
        socket.on('error', reject);
      });
    }

    test('a method token no HTTP parser knows is 501 problem+json (Node rejects it before any route)', async () => {
      const res = await raw('FOO /characters HTTP/1.1\r\nHost: x\r\n\r\n');
      assert.match(res, /^HTTP\/1\.1 501 Not Implemented\r\n/);
      assert.match(res, /content-type: application\/problem\+json/i);
      assert.match(res, /\r\nDate: \w{3}, \d\d \w{3} \d{4} /);
      const body = JSON.parse(res.slice(res.indexOf('\r\n\r\n') + 4));
      assert.equal(body.status, 501);
      // Absolute like every other problem's type, and naming the request it answers.
      assert.equal(body.type, `http://127.0.0.1:${port}/problems/not-implemented`);
      assert.equal(body.instance, '/characters');
    });

    test('a known method no route implements is 501; a malformed request line is 400', async () => {
      assert.match(await raw('PROPFIND /characters HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'), /^HTTP\/1\.1 501 /);
      assert.match(await raw('GET /characters HTTP/9.9\r\n\r\n'), /^HTTP\/1\.1 400 /);
    });

    test('bytes that are not an HTTP request line are 400 malformed-request, not an unknown method\'s 501', async () => {
      for (const line of ['GARBAGE\r\n\r\n', 'GARBAGE\r\nHost: x\r\n\r\n', 'FOO /characters\r\n\r\n', 'FOO/characters HTTP/1.1\r\n\r\n', '\u0016\u0003\u0001\u0000\u00a5\u0001\r\n\r\n']) {
        const res = await raw(line);
        assert.match(res, /^HTTP\/1\.1 400 Bad Request\r\n/, JSON.stringify(line));
        const body = JSON.parse(res.slice(res.indexOf('\r\n\r\n') + 4));
        assert.equal(body.type, `http://127.0.0.1:${port}/problems/malformed-request`);
        assert.match(body.detail, /does not begin with an HTTP request line/);
      }
      // A lower-case method is a valid token that names no method (methods are case-sensitive): 501.
      assert.match(await raw('get /characters HTTP/1.1\r\nHost: x\r\n\r\n'), /^HTTP\/1\.1 501 /);
    });

    test('problems written below Fastify carry X-Content-Type-Options: nosniff too', async () => {
      for (const request of ['FOO /characters HTTP/1.1\r\nHost: x\r\n\r\n', 'GARBAGE\r\n\r\n', 'GET /characters HTTP/1.1\r\n\r\n', 'GET /characters HTTP/1.1\r\nHost: x\r\nExpect: 999-x\r\nConnection: close\r\n\r\n']) {
        assert.match(await raw(request), /\r\nx-content-type-options: nosniff\r\n/i, JSON.stringify(request));
      }
    });
    test('an Expect other than 100-continue is 417 problem+json (found by the fuzz suite: Node answered with no body)', async () => {
      const res = await raw('GET /characters HTTP/1.1\r\nHost: x\r\nExpect: 999-x\r\nConnection: close\r\n\r\n');
      assert.match(res, /^HTTP\/1\.1 417 /);
      assert.match(res, /content-type: application\/problem\+json/i);
      const body = JSON.parse(res.slice(res.indexOf('\r\n\r\n') + 4));
      assert.equal(body.status, 417);
      assert.match(body.type, /\/problems\/expectation-failed$/);
    });
  });
}
