import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InvalidArgumentError } from 'commander';
import { DEFAULTS } from '../config/defaults.js';
import { verifyStandardWebhooks } from '../webhooks/inbound/verifiers/standard-webhooks.js';
import { endpointSecretError, generateEndpointSecret } from '../webhooks/outbound/secrets.js';

/** Options of `restwell hooks listen`. */
export interface HooksListenOptions {
  port?: number;
  host?: string;
  secret?: string;
}

/** A running `hooks listen` receiver. */
export interface HooksListener {
  /** Where it listens, e.g. `http://127.0.0.1:9000/`. */
  url: string;
  port: number;
  secret: string;
  /** True when the secret was made here (none was given). */
  generated: boolean;
  close(): Promise<void>;
}

type Write = (text: string) => void;

// Deliveries are small JSON events; a bigger body is not one of ours.
const MAX_BODY_BYTES = 1024 * 1024;
const MAX_PRINTED_CHARS = 2000;

const time = () => new Date().toTimeString().slice(0, 8);

function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        resolve(undefined);
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** The one line printed for a verified delivery: time, webhook-id, event type and the body, compact. */
function deliveryLine(id: string, body: Buffer): string {
  const text = body.toString('utf8');
  let type = '-';
  let compact = text.replace(/\s*\n\s*/g, ' ');
  try {
    const json = JSON.parse(text) as { type?: unknown };
    if (typeof json?.type === 'string') type = json.type;
    compact = JSON.stringify(json);
  } catch {
    // Not JSON: printed as it came, on one line.
  }
  if (compact.length > MAX_PRINTED_CHARS) compact = compact.slice(0, MAX_PRINTED_CHARS) + '…';
  return `${time()}  ${id}  ${type}  ${compact}\n`;
}

/**
 * Starts a local webhook receiver (like `stripe listen`): every POST must carry a valid Standard
 * Webhooks signature for `secret` (checked by the same verifier as inbound sources); a verified
 * delivery is printed on one line and answered 204, anything else 401 with a warning.
 */
export async function startHooksListener(options: HooksListenOptions, out: Write, warn: Write): Promise<HooksListener> {
  const given = options.secret;
  if (given !== undefined) {
    const problem = endpointSecretError(given);
    if (problem) throw new InvalidArgumentError(`--secret ${problem}`);
  }
  const secret = given ?? generateEndpointSecret();
  const server = createServer(async (req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    const body = await readBody(req).catch(() => undefined);
    if (!body) {
      warn(`${time()}  ! refused a ${req.method} ${req.url}: the body is too large or was cut off\n`);
      res.writeHead(413).end();
      return;
    }
    const result = verifyStandardWebhooks({ rawBody: body, headers: req.headers, url: req.url ?? '/' }, { secret });
    if (!result.ok) {
      const id = req.headers['webhook-id'] ?? 'no webhook-id';
      warn(`${time()}  ! rejected ${id}: ${result.reason} (answered 401)\n`);
      res.writeHead(401, { 'content-type': 'text/plain' }).end(`${result.reason}\n`);
      return;
    }
    out(deliveryLine(result.eventId ?? '-', body));
    res.writeHead(204).end();
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 9000, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return {
    url: `http://${shown.includes(':') ? `[${shown}]` : shown}:${port}/`,
    port,
    secret,
    generated: given === undefined,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** What `hooks listen` prints at start: where it listens, and with a new secret how to point an endpoint at it. */
export function listenBanner(listener: HooksListener): string {
  const lines = [`Listening for webhooks on ${listener.url} (Ctrl-C to stop)\n`];
  if (listener.generated) {
    const endpoint = JSON.stringify({ url: listener.url, secret: listener.secret });
    lines.push(
      `Signing secret (new; pass --secret ${listener.secret} to keep it next time):\n  ${listener.secret}\n`,
      'Create an endpoint that delivers here:\n',
      `  curl -X POST http://localhost:${DEFAULTS.server.port}/webhook-endpoints \\\n`,
      "    -H 'Authorization: Bearer <your API key>' -H 'Content-Type: application/json' \\\n",
      `    -d '${endpoint}'\n`,
    );
  }
  // The server's SSRF guard refuses this machine's addresses by default, which is what a local listener is.
  lines.push('The server must let it through: webhooks.outbound.allowNetworks: [127.0.0.1, "::1"] in its config.\n');
  return lines.join('');
}

/** `restwell hooks listen`: a local receiver printing the verified deliveries it gets, until Ctrl-C. */
export async function hooksListen(options: HooksListenOptions): Promise<void> {
  const listener = await startHooksListener(options, (t) => process.stdout.write(t), (t) => process.stderr.write(t));
  process.stdout.write(listenBanner(listener));
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await listener.close();
  process.stdout.write('Stopped.\n');
}
