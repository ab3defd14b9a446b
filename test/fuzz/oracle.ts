import { DEFAULTS } from '../../src/config/defaults.js';
import { parseBytes } from '../../src/config/sizes.js';
import { KNOWN_METHODS } from '../../src/http/errors.js';
import { negotiate } from '../../src/http/negotiate.js';
import type { FuzzRequest } from './fuzz-request.js';
import type { Outcome } from './transport.js';

/** What is wrong with one answer, or undefined when it is acceptable. */
export interface Violation {
  kind: '5xx' | 'no-response' | 'error-format' | 'unexpected-answer' | 'replacement-character';
  detail: string;
}

const MAX_HEADER_BYTES = 16 * 1024;
// The fuzzed server keeps the default body limit.
const MAX_BODY_BYTES = parseBytes(DEFAULTS.server.bodyLimit);
const bodySize = (req: FuzzRequest) => (req.body === undefined ? 0 : Buffer.byteLength(req.body));
const headSize = (req: FuzzRequest) => req.path.length + Object.entries(req.headers).reduce((n, [k, v]) => n + k.length + String(v).length + 4, 0);

// The OAuth endpoints answer errors in RFC 6749 §5.2 JSON, which is what OAuth clients parse.
const OAUTH_ENDPOINT = /^\/oauth\/(token|introspect|revoke)(\?|$)/;

/**
 * The rules every answer must keep: no 5xx (501 for a method token the server does not implement
 * is RFC 9110's answer, not a failure), an answer to every complete request, and every error an
 * RFC 9457 problem (or the documented OAuth JSON error) whose `status` matches the response.
 */
export function judge(req: FuzzRequest, outcome: Outcome): Violation | undefined {
  if (outcome.kind === 'no-response') {
    if (req.mayGoUnanswered || outcome.error.startsWith('client refused')) return undefined;
    // Past Node's header limit (431) or the body limit announced by Content-Length (413) the server
    // answers and closes while the client is still writing, so the client may see its write fail first.
    if (/EPIPE|ECONNRESET|UND_ERR_SOCKET/.test(outcome.error) && (headSize(req) > MAX_HEADER_BYTES || bodySize(req) > MAX_BODY_BYTES)) return undefined;
    return { kind: 'no-response', detail: outcome.error };
  }
  const { status, headers, body } = outcome;
  if (status >= 500 && !(status === 501 && !KNOWN_METHODS.has(req.method))) return { kind: '5xx', detail: `${status} ${body.toString('utf8').slice(0, 300)}` };
  if (req.expect && !answers(req.expect, status, body)) return { kind: 'unexpected-answer', detail: `${status}, not ${req.expect.status} ${req.expect.problem}: ${body.toString('utf8').slice(0, 300)}` };
  if (status < 300 && writesJson(req) && hasReplacement(body) && !hasReplacement(req.body!)) {
    return { kind: 'replacement-character', detail: `${status} echoes U+FFFD the request never sent (text was stored mangled): ${body.toString('utf8').slice(0, 300)}` };
  }
  if (status < 400 || req.method === 'HEAD') return undefined;
  const type = (headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  // A client that prefers text/html (a browser) gets the problem as a readable page.
  if (type === 'text/html' && negotiate({ headers: { accept: acceptOf(req) } }) === 'html') {
    return body.toString('utf8').includes(`<p class="status">${status}</p>`) ? undefined : { kind: 'error-format', detail: `${status} HTML problem page does not show its status` };
  }
  let parsed: any;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return { kind: 'error-format', detail: `${status} with a body that is not JSON (${type || 'no content-type'}): ${body.toString('utf8').slice(0, 200)}` };
  }
  if (OAUTH_ENDPOINT.test(req.path) && type === 'application/json' && typeof parsed?.error === 'string') return undefined;
  if (type !== 'application/problem+json') return { kind: 'error-format', detail: `${status} as ${type || 'no content-type'}, not application/problem+json` };
  if (parsed?.status !== status || typeof parsed.title !== 'string' || typeof parsed.type !== 'string') return { kind: 'error-format', detail: `${status} problem body lacks a matching status/title/type: ${body.toString('utf8').slice(0, 200)}` };
  return undefined;
}

/** True when the answer is the expected status with a problem of the expected code. */
function answers(expect: NonNullable<FuzzRequest['expect']>, status: number, body: Buffer): boolean {
  if (status !== expect.status) return false;
  try {
    return String(JSON.parse(body.toString('utf8')).type).endsWith(`/problems/${expect.problem}`);
  } catch {
    return false;
  }
}

/** A write with a JSON body to a resource (not a webhook receiver): what it stores, its 2xx answer echoes. */
function writesJson(req: FuzzRequest): boolean {
  const type = Object.entries(req.headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  return req.body !== undefined && !req.path.startsWith('/webhooks/') && typeof type === 'string' && /json/i.test(type) && ['POST', 'PUT', 'PATCH'].includes(req.method);
}

const REPLACEMENT = Buffer.from('\uFFFD', 'utf8');
/** U+FFFD, as UTF-8 bytes or as a JSON escape: what a lone surrogate or a bad byte becomes when mangled. */
function hasReplacement(bytes: Buffer): boolean {
  return bytes.includes(REPLACEMENT) || /\\ufffd/i.test(bytes.toString('latin1'));
}

/** The request's Accept header (names are sent as fuzzed, in any case); a repeated one is joined, as Node does. */
function acceptOf(req: FuzzRequest): string | undefined {
  const values = Object.entries(req.headers).filter(([name]) => name.toLowerCase() === 'accept').flatMap(([, v]) => [v].flat());
  return values.length ? values.join(', ') : undefined;
}
