import { connect } from 'node:net';
import { Client } from 'undici';
import type { FuzzRequest } from './fuzz-request.js';

/** What came back: a response, or what went wrong getting one. */
export type Outcome =
  | { kind: 'response'; status: number; headers: Record<string, string>; body: Buffer }
  | { kind: 'no-response'; error: string };

/** Longer than any legitimate answer takes, even on a loaded machine; a server that hangs is a finding. */
const TIMEOUT_MS = 30_000;
/** How long a possibly truncated raw message waits for an answer before the client ends its side. */
const QUIET_MS = 3_000;

/**
 * Sends fuzz requests to one server: undici for what a client can send, a raw socket for the rest.
 * Each request has a connection of its own, so one request's aftermath (a connection the server
 * closed, a body it stopped reading) never stalls the next.
 */
export class Transport {
  constructor(private readonly base: string) {}

  /** Sends one request; whatever happens, resolves within twice the timeout (a hang is an outcome too). */
  send(req: FuzzRequest): Promise<Outcome> {
    let timer: NodeJS.Timeout | undefined;
    const hang = new Promise<Outcome>((resolve) => {
      timer = setTimeout(() => resolve({ kind: 'no-response', error: `no answer within ${(2 * TIMEOUT_MS) / 1000}s` }), 2 * TIMEOUT_MS);
    });
    const sent = req.wire ? this.sendRaw(req.wire, req.mayGoUnanswered === true) : this.sendUndici(req);
    return Promise.race([sent, hang]).finally(() => clearTimeout(timer));
  }

  private async sendUndici(req: FuzzRequest): Promise<Outcome> {
    const client = new Client(this.base, { headersTimeout: TIMEOUT_MS, bodyTimeout: TIMEOUT_MS });
    try {
      const res = await client.request({ method: req.method as any, path: req.path, headers: req.headers, body: req.body });
      // An event stream never ends: its headers are the answer (the body is left unread).
      if (isEventStream(res.headers['content-type'])) return { kind: 'response', status: res.statusCode, headers: flatten(res.headers), body: Buffer.alloc(0) };
      const body = Buffer.from(await res.body.arrayBuffer());
      return { kind: 'response', status: res.statusCode, headers: flatten(res.headers), body };
    } catch (err) {
      const e = err as Error & { code?: string };
      // undici refuses some requests before sending them (an invalid header value): not the server's doing.
      if (e.code === 'UND_ERR_INVALID_ARG') return { kind: 'no-response', error: `client refused: ${e.message}` };
      return { kind: 'no-response', error: `${e.code ?? e.name}: ${e.message}` };
    } finally {
      void client.destroy().catch(() => undefined);
    }
  }

  /**
   * Writes the bytes and reads until a whole response has arrived or the server closes. A message
   * that may be truncated gets an end-of-stream after a quiet spell, so the server sees it end;
   * complete ones never do (Node abandons a request whose client half-closes, and the answer with it).
   */
  private sendRaw(wire: Buffer, truncated: boolean): Promise<Outcome> {
    const { hostname, port } = new URL(this.base);
    return new Promise((resolve) => {
      const chunks: Buffer[] = [];
      let done = false;
      const socket = connect(Number(port), hostname, () => socket.write(wire));
      const timer = setTimeout(() => finish('timed out waiting for an answer'), TIMEOUT_MS);
      const quiet = truncated ? setTimeout(() => socket.end(), QUIET_MS) : undefined;
      const finish = (error?: string) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        clearTimeout(quiet);
        socket.destroy();
        const parsed = parseResponse(Buffer.concat(chunks));
        resolve(parsed ?? { kind: 'no-response', error: error ?? 'connection closed without a response' });
      };
      socket.on('data', (d) => {
        chunks.push(d);
        const parsed = parseResponse(Buffer.concat(chunks));
        if (parsed?.complete || isEventStream(parsed?.headers['content-type'])) finish();
      });
      socket.on('close', () => finish());
      // A reset after the server answered and closed is normal; the answer is what counts.
      socket.on('error', (err: Error & { code?: string }) => finish(`${err.code ?? ''} ${err.message}`));
    });
  }
}

/** True for `text/event-stream`, a response that stays open for as long as the client reads it. */
function isEventStream(contentType: string | string[] | undefined): boolean {
  return String(contentType ?? '').toLowerCase().startsWith('text/event-stream');
}

function flatten(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/** The first response in raw bytes (1xx skipped), and whether all of its body has arrived. */
export function parseResponse(bytes: Buffer): (Outcome & { kind: 'response'; complete: boolean }) | undefined {
  let rest = bytes;
  for (;;) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) return undefined;
    const [statusLine = '', ...lines] = rest.subarray(0, end).toString('latin1').split('\r\n');
    const m = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
    if (!m) return undefined;
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const i = line.indexOf(':');
      if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
    }
    const status = Number(m[1]);
    const after = rest.subarray(end + 4);
    if (status >= 100 && status < 200) {
      rest = after;
      continue;
    }
    if (headers['transfer-encoding']?.includes('chunked')) {
      const body = dechunk(after);
      return { kind: 'response', status, headers, body: body ?? Buffer.alloc(0), complete: body !== undefined };
    }
    const length = headers['content-length'] === undefined ? undefined : Number(headers['content-length']);
    const complete = status === 204 || status === 304 || (length !== undefined && after.length >= length);
    return { kind: 'response', status, headers, body: length === undefined ? after : after.subarray(0, length), complete };
  }
}

/** A chunked body, or undefined until its last chunk has arrived. */
function dechunk(bytes: Buffer): Buffer | undefined {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = bytes.indexOf('\r\n', at);
    if (eol < 0) return undefined;
    const size = parseInt(bytes.subarray(at, eol).toString('latin1'), 16);
    if (Number.isNaN(size)) return undefined;
    if (size === 0) return Buffer.concat(parts);
    if (bytes.length < eol + 2 + size) return undefined;
    parts.push(bytes.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}
