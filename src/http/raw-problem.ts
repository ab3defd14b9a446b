import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { NOSNIFF } from './nosniff.js';
import { PROBLEMS, type ProblemCode } from './problems.js';

/** Where a problem written straight to a socket points: the base of its `type`, and its `instance`. */
export interface RawProblemOrigin {
  base: string;
  instance: string;
}

/**
 * Where a problem about a request Fastify never saw points. `type` is absolute like every other
 * problem's, on `base`: the server's origin (ServerOrigin), never a Host header, which is unchecked
 * here and in a CONNECT request names the proxy target, not this server. `instance` is the request
 * target when the bytes show a well-formed one, else a fresh `urn:uuid:` naming this occurrence
 * (RFC 9457 §3.1.5).
 */
export function rawProblemOrigin(base: string, target?: string | Buffer): RawProblemOrigin {
  return { base, instance: originForm(target) ?? `urn:uuid:${randomUUID()}` };
}

/** The RFC 9457 body of a catalog problem about a request Fastify never saw. */
export function rawProblemBody(code: ProblemCode, detail: string, origin: RawProblemOrigin): string {
  const p = PROBLEMS[code];
  return JSON.stringify({ type: `${origin.base}/problems/${code}`, title: p.title, status: p.status, detail, instance: origin.instance });
}

/** The headers of a raw problem response written with `writeHead`: it closes the connection. */
export function rawProblemHeaders(body: string): Record<string, string | number> {
  return { 'content-type': 'application/problem+json', 'content-length': Buffer.byteLength(body), connection: 'close', ...NOSNIFF };
}

/**
 * A complete HTTP/1.1 problem+json response, for code paths below Fastify (parser errors, refused
 * connections, CONNECT). It carries `Date` and closes the connection, which the caller then ends.
 */
export function rawProblemResponse(code: ProblemCode, detail: string, origin: RawProblemOrigin, headers: Record<string, string> = {}): string {
  const status = PROBLEMS[code].status;
  const body = rawProblemBody(code, detail, origin);
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    `Date: ${new Date().toUTCString()}`,
    'Content-Type: application/problem+json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    'X-Content-Type-Options: nosniff',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}

/**
 * The address the client connected to, as a URI authority: what RFC 9112 §3.3 makes the authority
 * of a request that names none.
 */
export function localAuthority(socket: Socket): string {
  const address = socket.localAddress?.replace(/^::ffff:(?=\d+\.)/, '');
  if (!address) return 'localhost';
  return `${address.includes(':') ? `[${address}]` : address}:${socket.localPort}`;
}

/** Longest request target echoed back; beyond it the occurrence gets a urn:uuid instead. */
const MAX_TARGET = 2048;
/** An origin-form request target (RFC 9112 §3.2.1) made only of URI characters, so safe to echo. */
const ORIGIN_FORM = /^\/[A-Za-z0-9\-._~!$&'()*+,;=:@/?%]*$/;

/** The request target of a request line (given as the raw bytes of the request, or the target itself). */
function originForm(target: string | Buffer | undefined): string | undefined {
  if (target === undefined) return undefined;
  const text = typeof target === 'string' ? target : target.subarray(0, MAX_TARGET + 64).toString('latin1').split('\r\n', 1)[0].split(' ')[1];
  return text && text.length <= MAX_TARGET && ORIGIN_FORM.test(text) ? text : undefined;
}
