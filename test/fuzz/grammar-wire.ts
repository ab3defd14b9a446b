import { authorization, type FuzzContext } from './fuzz-context.js';
import type { FuzzRequest } from './fuzz-request.js';
import type { Rng } from './prng.js';

/** Method tokens no route answers: unknown ones, lowercase, and the ones with special meaning. */
const ODD_METHODS = ['CONNECT', 'TRACE', 'get', 'Get', 'post', 'PROPFIND', 'MKCOL', 'PURGE', 'LINK', 'QUERY', 'M-SEARCH', 'SEARCH', 'FOO', 'G3T', 'BREW', 'X', 'GET_', 'DELETE!', 'a#$%&*+.^_`|~'];
const PATHS = ['/', '/characters', '/characters/1', '/notes', '/events', '/webhooks/mail', '/oauth/token', '/api-keys', '*'];

/** The bytes of a request with a complete, correct frame around whatever line and headers it has. */
export function frame(requestLine: string, headers: string[], body: Buffer = Buffer.alloc(0)): Buffer {
  const head = [requestLine, 'Host: 127.0.0.1', ...headers, 'Connection: close', ...(body.length ? [`Content-Length: ${body.length}`] : []), '', ''].join('\r\n');
  return Buffer.concat([Buffer.from(head, 'latin1'), body]);
}

function wireRequest(origin: string, wire: Buffer, mayGoUnanswered = false): FuzzRequest {
  const line = wire.subarray(0, Math.max(0, wire.indexOf('\r\n'))).toString('latin1');
  const [method = '', path = ''] = line.split(' ');
  return { origin, method, path, headers: {}, wire, mayGoUnanswered };
}

/**
 * Requests only a raw socket can send: odd method tokens (CONNECT, lowercase, unknown), malformed
 * request lines, forbidden header bytes, conflicting framing, truncated bodies and huge header blocks.
 */
export function wireRequestOf(rng: Rng, ctx: FuzzContext): FuzzRequest {
  const path = rng.pick(PATHS);
  const auth = Object.entries(authorization(rng, ctx)).map(([k, v]) => `${k}: ${v}`);
  const json = Buffer.from('{"name":"wire"}');
  return rng.weighted<FuzzRequest>([
    [6, () => wireRequest('wire: odd method', frame(`${rng.pick(ODD_METHODS)} ${path} HTTP/1.1`, auth, rng.chance(0.3) ? json : undefined))],
    [2, () => wireRequest('wire: CONNECT', frame(`CONNECT ${rng.pick(['127.0.0.1:443', 'example.com:80', '/characters', '*'])} HTTP/1.1`, auth))],
    [4, () => wireRequest('wire: request line', Buffer.from(rng.pick([
      `GET ${path} HTTP/1.0\r\n\r\n`, `GET ${path} HTTP/2.0\r\nHost: x\r\n\r\n`, `GET ${path} HTTP/9.9\r\n\r\n`, `GET ${path}\r\n\r\n`, `GET  ${path}  HTTP/1.1\r\nHost: x\r\n\r\n`,
      `GET ${path}\tHTTP/1.1\r\nHost: x\r\n\r\n`, `GET http://evil.example${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`, `OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      `GET * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`, `\r\n\r\nGET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`, `GET ${path} HTTP/1.1\nHost: x\nConnection: close\n\n`,
      `GET /chara\x00cters HTTP/1.1\r\nHost: x\r\n\r\n`, `GET /characters/\xff HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`, `GET ${path} HTTP/1.1\r\nConnection: close\r\n\r\n`,
      ` GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`, `GET ${path} HTTP/1.1\r\nHost: x\r\nHost: y\r\nConnection: close\r\n\r\n`, `GET /${'a'.repeat(rng.pick([8000, 70_000]))} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    ]), 'latin1'))],
    [4, () => wireRequest('wire: header bytes', frame(`GET ${path} HTTP/1.1`, [...auth, rng.pick([
      'X-A: b\r\n c', 'NoColon', 'Bad Name: x', 'X-A : y', ': empty', 'X-Ctl: a\x01b', 'X-Nul: a\x00b', 'X-Cr: a\rb', 'Accept: \xe9\xff', `X-Long: ${'v'.repeat(rng.pick([8000, 20_000, 100_000]))}`,
      Array.from({ length: rng.pick([100, 500, 3000]) }, (_, i) => `X-H${i}: ${i}`).join('\r\n'), 'If-None-Match: "\x7f"', 'Authorization: Bearer \xc3\xa9', 'Expect: 100-continue', 'Expect: 999-x',
      'Content-Length: 0\r\nContent-Length: 0', 'Upgrade: websocket\r\nConnection: Upgrade', 'Upgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA',
    ])]))],
    [4, () => {
      const body = rng.chance(0.5) ? json : Buffer.from(rng.pick(['{"name":"x"', '{', '', 'ab']));
      const method = rng.pick(['POST', 'PUT', 'PATCH']);
      const target = method === 'POST' ? rng.pick(['/characters', '/ledgers', '/webhooks/mail', '/oauth/token']) : '/characters/1';
      const ct = method === 'PATCH' ? 'application/merge-patch+json' : 'application/json';
      const framing = rng.pick([
        `Content-Length: ${body.length + rng.int(1, 100)}`, `Content-Length: ${Math.max(0, body.length - 1)}`, 'Content-Length: -1', 'Content-Length: 1e3', 'Content-Length: 99999999999999999999',
        `Content-Length: ${body.length}\r\nContent-Length: ${body.length + 1}`, `Content-Length: ${body.length}\r\nTransfer-Encoding: chunked`, 'Transfer-Encoding: chunked', 'Transfer-Encoding: gzip, chunked',
        'Transfer-Encoding: chunked\r\nTransfer-Encoding: identity', 'Transfer-Encoding: xchunked', `Content-Length: +${body.length}`, `Content-Length:  ${body.length} `,
      ]);
      const chunked = framing.includes('chunked') ? Buffer.from(rng.pick([`${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`, `zz\r\n${body}\r\n0\r\n\r\n`, `${body.length.toString(16)};ext=${'e'.repeat(5000)}\r\n${body}\r\n0\r\n\r\n`, `ffffffffffffffff\r\n${body}`, `${body.length.toString(16)}\r\n${body}`, `0\r\nX-Trailer: x\r\n\r\n`])) : body;
      const head = [`${method} ${target} HTTP/1.1`, 'Host: 127.0.0.1', ...auth, `Content-Type: ${ct}`, framing, 'Connection: close', '', ''].join('\r\n');
      return wireRequest('wire: framing', Buffer.concat([Buffer.from(head, 'latin1'), chunked]), true);
    }],
  ]);
}
