import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import type { FastifyRequest } from 'fastify';
import pino from 'pino';
import { logRequest, tenthsText } from './request-log-line.js';

/** A pino logger as Fastify makes a request's (the app's bindings, then reqId), writing into `lines`, its clock fixed. */
function requestLogger(lines: string[], level = 'info') {
  const stream = new Writable({ write: (chunk, _e, done) => (lines.push(String(chunk)), done()) });
  const redact = { paths: ['req.headers.authorization'], censor: '[redacted]' };
  return pino({ level, redact, timestamp: () => ',"time":1700000000000' }, stream).child({ reqId: 'req-7' });
}

test('the request line is the one request.log.info writes, byte for byte, escapes and redacted query included', () => {
  // node:http hands over the request line's bytes one character each (latin1), so a URL holds no character above \u00ff;
  // those below 0x20, quotes and backslashes are what needs escaping.
  for (const url of ['/characters/1', '/characters?limit=2&access_token=sekrit', '/x/"quoted"\\back?name=%C3%A9', '/\u00fcn\u00efcode\u00ff', '/ctl\u0001\u001f\u007f']) {
    for (const [status, ms] of [[200, 0.4321], [404, 12], [503, 1234.56]] as const) {
      const ours: string[] = [];
      const pinos: string[] = [];
      logRequest({ method: 'GET', url, log: requestLogger(ours) } as unknown as FastifyRequest, status, ms);
      const loggedUrl = url.replace('sekrit', '[redacted]');
      const rounded = Math.round(ms * 10) / 10;
      requestLogger(pinos).info({ method: 'GET', url: loggedUrl, status, ms: rounded }, `GET ${loggedUrl} ${status} ${rounded}ms`);
      assert.deepEqual(ours, pinos);
      const line = JSON.parse(ours[0]!);
      assert.deepEqual(Object.keys(line), ['level', 'time', 'pid', 'hostname', 'reqId', 'method', 'url', 'status', 'ms', 'msg']);
    }
  }
});

test('a request logger above info writes no request line; a logger that is not pino gets the ordinary call', () => {
  const lines: string[] = [];
  logRequest({ method: 'GET', url: '/x', log: requestLogger(lines, 'warn') } as unknown as FastifyRequest, 200, 1);
  assert.deepEqual(lines, []);
  const calls: unknown[][] = [];
  logRequest({ method: 'POST', url: '/y', log: { info: (...args: unknown[]) => calls.push(args) } } as unknown as FastifyRequest, 201, 2.25);
  assert.deepEqual(calls, [[{ method: 'POST', url: '/y', status: 201, ms: 2.3 }, 'POST /y 201 2.3ms']]);
});

test('the duration is written as JavaScript writes the number rounded to tenths', () => {
  const written = (ms: number) => `${Math.round(ms * 10) / 10}`;
  for (let tenths = 0; tenths <= 200_000; tenths++) {
    // Exactly on a tenth, and either side of where it rounds up.
    for (const ms of [tenths / 10, tenths / 10 + 0.05, tenths / 10 + 0.0499999, tenths / 10 - 0.05]) assert.equal(tenthsText(ms), written(ms), String(ms));
  }
  for (const ms of [0, -0, -0.04, -0.06, -3.2, 0.15, 1.005, 107374182.3, 107374182.4, 1e9 + 0.1, 1e21, 1e300, NaN, Infinity, -Infinity, Number.MIN_VALUE]) {
    assert.equal(tenthsText(ms), written(ms), String(ms));
  }
  for (let i = 0; i < 10_000; i++) {
    const ms = Math.random() ** 3 * 60_000;
    assert.equal(tenthsText(ms), written(ms), String(ms));
  }
});
