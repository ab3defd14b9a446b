import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction, onSendHookHandler } from 'fastify';
import type { CorsConfig } from '../config/types.js';
import { addVary } from './vary.js';

/** The loopback origins `serve <file.json>` allows, as json-server allows pages on other ports (a Vite dev server) to call it. */
export const LOOPBACK_ORIGINS = ['http://localhost:*', 'http://127.0.0.1:*', 'http://[::1]:*'];

/**
 * Response headers a page's script may read besides the CORS-safelisted ones (Content-Type,
 * Last-Modified, Cache-Control…): validators, where things are, paging, retry advice, rate limits,
 * whether an Idempotency-Key replayed, and what a method or body type the path takes.
 */
const EXPOSED = ['ETag', 'Location', 'Link', 'X-Total-Count', 'Retry-After', 'Idempotent-Replayed', 'RateLimit', 'RateLimit-Policy', 'WWW-Authenticate', 'Allow', 'Accept-Patch', 'Accept-Post', 'Content-Location'].join(', ');

/** Request headers a page may always send (beyond the CORS-safelisted ones). */
const ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'If-Match', 'If-None-Match', 'If-Modified-Since', 'If-Unmodified-Since', 'Idempotency-Key', 'Prefer', 'Last-Event-ID'];

/**
 * Requested headers never allowed, even when asked for: they claim where a request came from or
 * change what the server thinks the method is, which a page in a visitor's browser must not decide.
 */
const NEVER = /^(forwarded|x-forwarded-.*|x-real-ip|x-http-method(-override)?|x-method-override|cookie|host)$/;
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}$/;
/** More requested headers than a real page sends; a longer list is answered with the fixed set only. */
const MAX_REQUESTED = 32;

/** An origin pattern compiled: `*` alone matches every origin; elsewhere only where the config put one. */
function matcher(pattern: string): (origin: string) => boolean {
  if (pattern === '*') return () => true;
  if (!pattern.includes('*')) return (origin) => origin === pattern;
  const source = pattern.replace(/[.[\]]/g, '\\$&').replace(/^(https?:\/\/)\*\\\./, '$1(?:[a-z0-9-]+\\.)+').replace(/:\*$/, '(?::\\d{1,5})?');
  const re = new RegExp(`^${source}$`);
  return (origin) => re.test(origin);
}

/** The CORS policy of a config: which origins may read responses, and the headers that tell a browser so. */
export class CorsPolicy {
  private readonly matchers: Array<(origin: string) => boolean>;
  private readonly maxAge: string;

  constructor(config: CorsConfig) {
    this.matchers = config.origins.map(matcher);
    this.maxAge = String(config.maxAgeSeconds);
  }

  /** The request's Origin when the policy allows it (lower-cased as browsers send it), else undefined. */
  allowedOrigin(request: Pick<FastifyRequest, 'headers'>): string | undefined {
    const origin = request.headers.origin;
    if (typeof origin !== 'string' || origin.length > 300) return undefined;
    const lower = origin.toLowerCase();
    // `null` is the origin of sandboxed frames and file: pages: anything may claim it, so no pattern allows it.
    if (lower === 'null') return undefined;
    return this.matchers.some((m) => m(lower)) ? origin : undefined;
  }

  /**
   * The onRequest hook: every response (errors and 404s included, since the hook runs before any
   * of them) varies by Origin, and one to an allowed origin says so and exposes the API's headers.
   * The origin is echoed, never `*`, so a cache keyed by Vary never hands it to another origin.
   */
  readonly hook = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    addVary(reply, 'Origin');
    const origin = this.allowedOrigin(request);
    if (origin) reply.header('access-control-allow-origin', origin).header('access-control-expose-headers', EXPOSED);
    done();
  };

  /**
   * The onSend hook: a handler that names headers to expose itself (json-server's lists name
   * X-Total-Count) keeps the policy's list too, and a response to an origin not allowed exposes none.
   */
  readonly onSend: onSendHookHandler = (_request, reply, payload, done) => {
    const exposed = reply.getHeader('access-control-expose-headers');
    if (exposed !== undefined && exposed !== EXPOSED) {
      if (reply.getHeader('access-control-allow-origin') === undefined) reply.removeHeader('access-control-expose-headers');
      else reply.header('access-control-expose-headers', mergeNames(EXPOSED, String(exposed)));
    }
    done(null, payload);
  };

  /**
   * Answers a preflight (OPTIONS with Origin and Access-Control-Request-Method) when its origin is
   * allowed: 204 with the methods the path takes (`allow`) and the headers a page may send; returns
   * false (nothing sent) otherwise, so the OPTIONS is answered as any other and the browser refuses.
   */
  preflight(request: FastifyRequest, reply: FastifyReply, allow: string): boolean {
    if (request.headers['access-control-request-method'] === undefined) return false;
    if (!this.allowedOrigin(request)) return false;
    reply
      .header('allow', allow)
      .header('access-control-allow-methods', allow)
      .header('access-control-allow-headers', allowedHeaders(request.headers['access-control-request-headers']))
      .header('access-control-max-age', this.maxAge);
    reply.code(204).send();
    return true;
  }
}

/**
 * The fixed set, plus the requested names that are header tokens and not in NEVER. Allowing a
 * header only lets a page send it; the server ignores those it does not know.
 */
function allowedHeaders(requested: string | string[] | undefined): string {
  const names = new Set(ALLOWED_HEADERS.map((h) => h.toLowerCase()));
  const extra: string[] = [];
  const list = typeof requested === 'string' ? requested.split(',').map((h) => h.trim().toLowerCase()).filter(Boolean) : [];
  if (list.length <= MAX_REQUESTED) {
    for (const name of list) if (TOKEN.test(name) && !NEVER.test(name) && !names.has(name)) names.add(name) && extra.push(name);
  }
  return [...ALLOWED_HEADERS, ...extra].join(', ');
}

/** `base` with the names of `more` it lacks (compared case-insensitively), in order. */
function mergeNames(base: string, more: string): string {
  const have = new Set(base.toLowerCase().split(', '));
  const extra = more.split(',').map((n) => n.trim()).filter((n) => n && !have.has(n.toLowerCase()));
  return extra.length ? `${base}, ${extra.join(', ')}` : base;
}
