import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { Socket } from 'node:net';
import { DomainError } from '../core/errors.js';
import { StoreUnavailableError } from '../store/errors.js';
import { PROBLEMS, isProblemCode, sendProblem } from './problems.js';
import { PATCH_TYPES } from './resources/patch.js';

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
  if (error instanceof DomainError && isProblemCode(error.code)) {
    return sendProblem(request, reply, error.code, error.message, error.extra);
  }
  if (error instanceof StoreUnavailableError) {
    reply.header('retry-after', String(error.retryAfterSeconds));
    return sendProblem(request, reply, 'unavailable', error.message);
  }
  const code = (error as FastifyError).code;
  const mapped = code ? FRAMEWORK[code] : undefined;
  if (mapped) {
    if (mapped.code === 'unsupported-media-type') {
      reply.header('accept-patch', PATCH_TYPES.join(', '));
      const type = request.headers['content-type'] ?? '(none)';
      return sendProblem(request, reply, mapped.code, `Content-Type ${type} is not accepted; send application/json${request.method === 'PATCH' ? ` or, for PATCH, ${PATCH_TYPES.join(' or ')}` : ''}`);
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
  if (!KNOWN_METHODS.has(request.method)) {
    return sendProblem(request, reply, 'not-implemented', `${request.method} is not implemented by this server; use ${[...KNOWN_METHODS].join(', ')}`);
  }
  return sendProblem(request, reply, 'not-found', `nothing at ${request.url.split('?')[0]}; GET / lists the collections`);
}

/**
 * Requests Node's HTTP parser rejects before Fastify sees them: an unknown method token is
 * 501 (RFC 9110 §15.6.2), anything else malformed is 400, both as problem+json.
 */
export function handleClientError(err: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const notImplemented = err.code === 'HPE_INVALID_METHOD';
  const code = notImplemented ? 'not-implemented' : 'malformed-body';
  const p = PROBLEMS[code];
  const body = JSON.stringify({
    // No Host header can be trusted here, so the type is a relative reference to the same page.
    type: `/problems/${code}`,
    title: p.title,
    status: p.status,
    detail: notImplemented ? 'the request method is not implemented by this server' : `the request could not be parsed (${err.code ?? 'bad request'})`,
  });
  socket.end(
    `HTTP/1.1 ${p.status} ${notImplemented ? 'Not Implemented' : 'Bad Request'}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
