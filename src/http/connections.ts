import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { RestwellConfig } from '../config/types.js';
import { handleClientError, KNOWN_METHODS } from './errors.js';
import { localAuthority, rawProblemBody, rawProblemHeaders, rawProblemOrigin, rawProblemResponse } from './raw-problem.js';
import type { ServerOrigin } from './server-origin.js';

/** What the connection layer needs from the config. */
export interface ConnectionOptions {
  server: RestwellConfig['server'];
  /** The server's origin, the base of problem `type` URLs. */
  origin: ServerOrigin;
}

/**
 * The node:http server under the Fastify app (every one, when `localhost` makes Fastify listen
 * twice): the configured timeouts, so a client dripping its headers or its body gets a 408 instead
 * of holding a connection; a cap on open connections per client address; and problem+json for
 * what never reaches a route (parser errors, a missing Host, CONNECT).
 */
export function createHttpServer(handler: RequestListener, options: ConnectionOptions): Server {
  const { server: config, origin } = options;
  const server = createServer(
    {
      headersTimeout: config.headersTimeoutMs,
      requestTimeout: config.requestTimeoutMs,
      keepAliveTimeout: config.keepAliveTimeoutMs,
      // Node checks for expired requests every 30 s by default, which would stretch a 10 s limit to 40.
      connectionsCheckingInterval: 1000,
      // withHost answers a missing Host itself: Node's own answer is a bare 400 without a problem.
      requireHostHeader: false,
    },
    withHost(handler, origin),
  );
  server.on('clientError', (err: Error, socket: Socket) => handleClientError(err, socket, origin.url));
  server.on('connect', (request: IncomingMessage, socket: Socket) => refuseConnect(request, socket, origin));
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => refuseExpectation(request, response, origin));
  capConnectionsPerClient(server, config.maxConnectionsPerClient, origin);
  return server;
}

/**
 * RFC 9112 §3.2: an HTTP/1.1 request without Host is 400. An HTTP/1.0 one may omit it; it gets the
 * authority the client connected to (§3.3), so links and problem types built from it stay absolute.
 */
function withHost(handler: RequestListener, origin: ServerOrigin): RequestListener {
  return (request, response) => {
    if (request.headers.host !== undefined) return handler(request, response);
    if (request.httpVersion === '1.0') {
      request.headers.host = localAuthority(request.socket);
      return handler(request, response);
    }
    const body = rawProblemBody('malformed-request', 'an HTTP/1.1 request must carry a Host header (RFC 9112 §3.2)', rawProblemOrigin(origin.url, request.url));
    response.writeHead(400, rawProblemHeaders(body)).end(body);
  };
}

/** An Expect other than 100-continue is 417 (RFC 9110 §10.1.1); Node's own 417 has no problem body. */
function refuseExpectation(request: IncomingMessage, response: ServerResponse, origin: ServerOrigin): void {
  const body = rawProblemBody('expectation-failed', `Expect: ${request.headers.expect} is not an expectation this server meets; only 100-continue is`, rawProblemOrigin(origin.url, request.url));
  response.writeHead(417, rawProblemHeaders(body)).end(body);
}

/** CONNECT asks for a tunnel; this server is not a proxy (without a listener Node drops the socket unanswered). */
function refuseConnect(request: IncomingMessage, socket: Socket, origin: ServerOrigin): void {
  const detail = `CONNECT ${request.url} asks for a tunnel; this server is not a proxy. Use ${[...KNOWN_METHODS].join(', ')}`;
  socket.on('error', () => socket.destroy());
  socket.end(rawProblemResponse('not-implemented', detail, rawProblemOrigin(origin.url)), () => socket.destroy());
}

/** How long a refused connection may stay open to take its request bytes and read the answer. */
const REFUSED_LINGER_MS = 2000;
/** Seconds a refused client is told to wait: long enough for one of its requests to finish. */
const RETRY_AFTER_SECONDS = 1;

/**
 * At most `max` open connections per client address. Node's HTTP listener is moved behind a gate,
 * so a connection beyond the cap never reaches the parser (none of its requests can run): it is
 * answered 429 and closed.
 */
function capConnectionsPerClient(server: Server, max: number, origin: ServerOrigin): void {
  const httpListeners = server.listeners('connection') as Array<(socket: Socket) => void>;
  server.removeAllListeners('connection');
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const client = socket.remoteAddress ?? '';
    const count = (open.get(client) ?? 0) + 1;
    if (count > max) return refuseConnection(socket, max, origin);
    open.set(client, count);
    socket.once('close', () => {
      const left = open.get(client)! - 1;
      if (left) open.set(client, left);
      else open.delete(client);
    });
    for (const listener of httpListeners) listener.call(server, socket);
  });
}

/**
 * Answers a refused connection once its first bytes arrive (so the 429 follows the request, as
 * every HTTP client expects), then reads and drops the rest until the client closes too, for at most
 * a short linger: closing with unread bytes would reset the connection and could lose the answer.
 */
function refuseConnection(socket: Socket, max: number, origin: ServerOrigin): void {
  const linger = setTimeout(() => socket.destroy(), REFUSED_LINGER_MS);
  socket.once('close', () => clearTimeout(linger));
  socket.on('error', () => socket.destroy());
  socket.once('data', (first: Buffer) => {
    const detail = `this client already has ${max} open connections, the most server.maxConnectionsPerClient allows; reuse one (keep-alive) or close one`;
    socket.end(rawProblemResponse('too-many-connections', detail, rawProblemOrigin(origin.url, first), { 'Retry-After': String(RETRY_AFTER_SECONDS) }));
  });
}
