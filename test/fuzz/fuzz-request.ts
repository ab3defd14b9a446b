/** One generated request, as sent on the wire. */
export interface FuzzRequest {
  /** Which generator made it (for the summary and a reproduction). */
  origin: string;
  method: string;
  /** The request target, sent as is (it may be malformed on purpose). */
  path: string;
  /** Header name → value; an array repeats the header. */
  headers: Record<string, string | string[]>;
  body?: Buffer;
  /**
   * Send these exact bytes over a raw socket rather than through undici: for what an HTTP client
   * refuses to send (unknown method tokens, control characters, malformed framing, huge header blocks).
   * `method`, `path` and `headers` then only describe the request.
   */
  wire?: Buffer;
  /** A raw request whose connection the server may close without an answer (a truncated message). */
  mayGoUnanswered?: boolean;
  /**
   * May legitimately change state even when rejected: a genuine (correctly signed) webhook
   * delivery is stored in the inbox as failed when its payload cannot be processed.
   */
  mayChangeWhenRejected?: boolean;
  /** The one answer this request may get: its status and problem code (grammars that know it, such as grammar-unicode). */
  expect?: { status: number; problem: string };
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** True when the request is a read: it must never change state, whatever its answer. */
export function isSafe(req: FuzzRequest): boolean {
  return SAFE_METHODS.has(req.method);
}

/** A reproduction of the request a person can replay: method, target, headers, body (hex when not text). */
export function reproduction(req: FuzzRequest): string {
  if (req.wire) return `raw socket bytes (${req.origin}), ${req.wire.length} bytes:\n  ${JSON.stringify(clip(req.wire).toString('latin1'))}\n  hex: ${clip(req.wire).toString('hex')}`;
  const lines = [`${JSON.stringify(req.method)} ${JSON.stringify(req.path)}  (${req.origin})`];
  for (const [name, value] of Object.entries(req.headers)) {
    for (const v of Array.isArray(value) ? value : [value]) lines.push(`  ${name}: ${JSON.stringify(v.length > 300 ? `${v.slice(0, 300)}…(${v.length} chars)` : v)}`);
  }
  if (req.body?.length) {
    const text = req.body.toString('utf8');
    const printable = Buffer.from(text, 'utf8').equals(req.body) && !/[\x00-\x08\x0e-\x1f]/.test(text);
    const shown = clip(req.body);
    lines.push(printable ? `  body (${req.body.length} bytes, utf8): ${JSON.stringify(shown.toString('utf8'))}` : `  body (${req.body.length} bytes, hex): ${shown.toString('hex')}`);
  }
  return lines.join('\n');
}

function clip(bytes: Buffer): Buffer {
  return bytes.length > 2000 ? bytes.subarray(0, 2000) : bytes;
}
