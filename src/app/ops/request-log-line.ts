import type { FastifyRequest } from 'fastify';
import pino from 'pino';
import { loggableUrl } from './loggable-url.js';

const { chindingsSym, streamSym, timeSym } = pino.symbols;
/** What JSON.stringify writes otherwise than as is: quotes, backslashes, control characters and (unpaired) surrogates. */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;
/** The largest count of tenths written from its integer parts (a Smi: each part's text comes from V8's number-string cache). */
const MAX_TENTHS = 0x3fffffff;

/**
 * `ms` rounded to tenths, as `${Math.round(ms * 10) / 10}` writes it ("0.4", "12", "1234.6"), put
 * together from the integer count of tenths and its last digit: writing a fractional double as
 * decimal text measured ~70 ns (the line did it twice, in the field and in the message), a small
 * integer's text comes from V8's number-string cache.
 */
export function tenthsText(ms: number): string {
  const tenths = Math.round(ms * 10);
  if (!(tenths >= 0 && tenths <= MAX_TENTHS)) return `${tenths / 10}`;
  const digit = tenths % 10;
  return digit === 0 ? `${tenths / 10}` : `${(tenths - digit) / 10}.${digit}`;
}

/**
 * Logs one request at info: `{"level":30,"time":…,"pid":…,"hostname":…,"reqId":…,"method":…,"url":…,
 * "status":…,"ms":…,"msg":"GET /x 200 1.2ms"}`. The line is the one `request.log.info({ method, url,
 * status, ms }, msg)` writes, byte for byte (the request logger's own bindings and clock, then the
 * fields), put together here because it is written for every request: pino's generic path (a
 * serializer and redaction pass over the fields, each string escaped on its own) cost more than
 * the rest of a cached GET's logging. Its fields are four known ones, none of them a credential (the
 * URL's are redacted by loggableUrl), so redaction has nothing to do. A logger that is not pino's
 * gets the ordinary call.
 */
export function logRequest(request: FastifyRequest, status: number, ms: number): void {
  // A request logger set above info (a route's own logLevel) writes no request line, as before.
  if (((request.log as { levelVal?: number }).levelVal ?? 30) > 30) return;
  const url = loggableUrl(request.url);
  // What of a pino logger the line is written with: its bindings, its clock and its destination.
  const log = request.log as unknown as Record<symbol, unknown>;
  const chindings = log[chindingsSym];
  const time = log[timeSym] as (() => string) | undefined;
  const stream = log[streamSym] as { write?: (line: string) => unknown } | undefined;
  if (typeof chindings !== 'string' || typeof time !== 'function' || typeof stream?.write !== 'function') {
    const rounded = Math.round(ms * 10) / 10;
    request.log.info({ method: request.method, url, status, ms: rounded }, `${request.method} ${url} ${status} ${rounded}ms`);
    return;
  }
  // The method is an HTTP token (no character JSON escapes); the URL is escaped once, if at all, and used in both fields.
  const escaped = NEEDS_ESCAPE.test(url) ? JSON.stringify(url).slice(1, -1) : url;
  const method = request.method;
  const took = tenthsText(ms);
  stream.write!(`{"level":30${time()}${chindings},"method":"${method}","url":"${escaped}","status":${status},"ms":${took},"msg":"${method} ${escaped} ${status} ${took}ms"}\n`);
}
