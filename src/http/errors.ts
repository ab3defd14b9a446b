import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { maxHeaderSize, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { DomainError } from '../core/errors.js';
import { StoreFullError, StoreUnavailableError } from '../store/errors.js';
import { advertiseBodyTypes } from './body-types.js';
import { PROBLEMS, isProblemCode, sendProblem, type ProblemCode } from './problems.js';
import { rawProblemOrigin, rawProblemResponse } from './raw-problem.js';

/** Fastify's own error codes, mapped onto the problem catalog. */
const FRAMEWORK: Record<string, { code: keyof typeof PROBLEMS; detail?: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: 'unsupported-media-type' },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'body-too-large' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'malformed-json', detail: 'the body is empty but Content-Type says JSON' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'malformed-body', detail: 'Content-Length does not match the body' },
  FST_ERR_BAD_URL: { code: 'invalid-query', detail: 'the URL is not valid (check its percent-encoding)' },
};

/**
 * The one error handler: domain errors and framework errors become catalog problems; anything
 * else is a bug, logged with its stack and answered with a bare 500 (never the stack).
 */
export function handleError(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) {
  // A method nobody implements is 501 whatever else is wrong (Fastify checks QUERY's Content-Type first).
  if (!KNOWN_METHODS.has(request.method)) return notImplemented(request, reply);
  if (error instanceof DomainError && isProblemCode(error.code)) {
    if (error.code === 'unsupported-media-type') advertiseBodyTypes(reply, request.method);
    return sendProblem(request, reply, error.code, error.message, error.extra);
  }
  if (error instanceof StoreUnavailableError) {
    reply.header('retry-after', String(error.retryAfterSeconds));
    return sendProblem(request, reply, 'unavailable', error.message);
  }
  if (error instanceof StoreFullError) {
    // Not logged here: the store's watch logs the condition once when it starts and once when it ends.
    reply.header('retry-after', String(error.retryAfterSeconds));
    return sendProblem(request, reply, 'insufficient-storage', 'the server has no storage space left for this write; nothing was stored; retry after Retry-After seconds');
  }
  const code = (error as FastifyError).code;
  const mapped = code ? FRAMEWORK[code] : undefined;
  if (mapped) {
    if (mapped.code === 'unsupported-media-type') {
      const accepted = advertiseBodyTypes(reply, request.method);
      const type = request.headers['content-type'] ?? '(none)';
      return sendProblem(request, reply, mapped.code, `Content-Type ${type} is not accepted; ${request.method} takes ${accepted.join(' or ')}`);
    }
    return sendProblem(request, reply, mapped.code, mapped.detail ?? error.message);
  }
  const status = (error as FastifyError).statusCode;
  if (error instanceof SyntaxError || (status === 400 && /JSON|prototype/i.test(error.message))) {
    return sendProblem(request, reply, 'malformed-json', `the body is not valid JSON: ${error.message}`);
  }
  if (status && status >= 400 && status < 500) {
    return sendProblem(request, reply, status === 413 ? 'body-too-large' : status === 415 ? 'unsupported-media-type' : 'malformed-body', error.message);
  }
  request.log.error({ err: error }, 'unhandled error');
  return sendProblem(request, reply, 'internal', 'an unexpected error occurred; it has been logged');
}

/** Methods the server understands; any other is 501 wherever it is sent. */
export const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** For requests the router has no route for: 501 for methods nobody implements, else 404. */
export function handleNotFound(request: FastifyRequest, reply: FastifyReply) {
  if (!KNOWN_METHODS.has(request.method)) return notImplemented(request, reply);
  return sendProblem(request, reply, 'not-found', `nothing at ${request.url.split('?')[0]}; GET / lists the collections`);
}

function notImplemented(request: FastifyRequest, reply: FastifyReply) {
  return sendProblem(request, reply, 'not-implemented', `${request.method} is not implemented by this server; use ${[...KNOWN_METHODS].join(', ')}`);
}

/** Parser and timeout errors with a problem of their own; any other parser error is 400 malformed-request. */
const CLIENT_ERRORS: Record<string, { code: ProblemCode; detail: string }> = {
  // RFC 9110 §15.6.2: a method token nobody implements is 501, wherever it is sent (when the
  // line around it is a request line: otherwise the bytes are not HTTP at all, and that is 400).
  HPE_INVALID_METHOD: { code: 'not-implemented', detail: `the request method is not implemented by this server; use ${[...KNOWN_METHODS].join(', ')}` },
  HPE_HEADER_OVERFLOW: { code: 'headers-too-large', detail: `the request line and headers exceed ${maxHeaderSize / 1024} KiB` },
  ERR_HTTP_REQUEST_TIMEOUT: { code: 'request-timeout', detail: 'the request did not arrive in time (server.headersTimeout for the headers, server.requestTimeout for the whole request)' },
};

/**
 * Requests Node's HTTP server rejects before Fastify sees them (unparseable, oversized headers,
 * too slow) get a problem+json response written to the socket, which is then closed.
 */
export function handleClientError(err: Error & { code?: string; reason?: string; rawPacket?: Buffer }, socket: Socket, base: string): void {
  // A request already answered in part (its response headers sent) cannot take a second response.
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
  if (!socket.writable || err.code === 'ECONNRESET' || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const known = err.code === 'HPE_INVALID_METHOD' && !isRequestLine(err.rawPacket) ? NOT_HTTP : err.code ? CLIENT_ERRORS[err.code] : undefined;
  const code = known?.code ?? 'malformed-request';
  const detail = known?.detail ?? `the request could not be parsed: ${err.reason ?? err.message} (${err.code ?? 'bad request'})`;
  // Destroyed, not just ended: the parser would go on reading, and a late body could still reach a route.
  socket.end(rawProblemResponse(code, detail, rawProblemOrigin(base, inFlight?.req.url ?? err.rawPacket)), () => socket.destroy());
}

/** Bytes that are not an HTTP request at all (RFC 9112 §3): 400, not an unknown method's 501. */
const NOT_HTTP = { code: 'malformed-request', detail: 'the request does not begin with an HTTP request line: a method, a space, the target, a space, HTTP/1.1 and CRLF' } as const;

/** A method token, a request target and an HTTP version (RFC 9112 §3): `token SP target SP HTTP/x.y`. */
const REQUEST_LINE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ [^\s]+ HTTP\/\d\.\d$/;
/** The start of one, when the packet ends before its line does: a method token and a space. */
const REQUEST_LINE_START = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ /;

/**
 * Whether the bytes the parser refused begin with an HTTP request line, so that an unknown method
 * is the only thing wrong with them. `GARBAGE\r\n` is no request line: it is a malformed request.
 */
function isRequestLine(packet: Buffer | undefined): boolean {
  if (!packet) return true;
  const text = packet.subarray(0, 8192).toString('latin1');
  const end = text.indexOf('\r\n');
  return end === -1 ? REQUEST_LINE_START.test(text) : REQUEST_LINE.test(text.slice(0, end));
}
