import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InvalidArgumentError } from 'commander';
import { DEFAULTS } from '../config/defaults.js';
import { loadConfig } from '../config/load.js';
import { verifyStandardWebhooks } from '../webhooks/inbound/verifiers/standard-webhooks.js';
import { endpointSecretError, generateEndpointSecret } from '../webhooks/outbound/secrets.js';
import { serverBaseUrl } from './server-url.js';

/** Options of `restwell hooks listen`. */
export interface HooksListenOptions {
  port?: number;
  host?: string;
  secret?: string;
  /** The Restwell server the printed `curl` (and `--register`) talks to, e.g. `http://localhost:9000`. */
  url?: string;
  /** The config file the server was started with: its `server.port`/`host` say where it listens when `--url` does not. */
  config?: string;
  /** Create the endpoint through the server's API (and delete it on stop), with `token`. */
  register?: boolean;
  /** A token with `webhooks:write` for `--register`; env RESTWELL_TOKEN. */
  token?: string;
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

/**
 * Where the Restwell server listens, for the printed `curl` and `--register`: `--url`; else the
 * config's (with `--config` or RESTWELL_CONFIG), with `PORT` first as `serve` reads it; else the
 * demo's, on `PORT` or 8080.
 */
export function serverUrl(options: Pick<HooksListenOptions, 'url' | 'config'>, env: NodeJS.ProcessEnv = process.env): string {
  const file = options.config ?? env.RESTWELL_CONFIG;
  if (file && !options.url) return serverBaseUrl(loadConfig({ file, env }).server);
  const port = env.PORT && /^\d+$/.test(env.PORT) ? Number(env.PORT) : DEFAULTS.server.port;
  return serverBaseUrl({ ...DEFAULTS.server, port }, options.url);
}

/** What `hooks listen` prints at start: where it listens and, unless it registered itself, how to point an endpoint at it. */
export function listenBanner(listener: HooksListener, server = `http://localhost:${DEFAULTS.server.port}`, registered?: string): string {
  const lines = [`Listening for webhooks on ${listener.url} (Ctrl-C to stop)\n`];
  if (registered) {
    lines.push(`Registered endpoint ${registered} on ${server}: every event is delivered here; it is deleted when this stops.\n`);
  } else if (listener.generated) {
    const endpoint = JSON.stringify({ url: listener.url, secret: listener.secret });
    lines.push(
      `Signing secret (new; pass --secret ${listener.secret} to keep it next time):\n  ${listener.secret}\n`,
      'Create an endpoint that delivers here (TOKEN: a key with webhooks:write; or run hooks listen --register):\n',
      `  curl -X POST ${server}/webhook-endpoints \\\n`,
      `    -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \\\n`,
      `    -d '${endpoint}'\n`,
    );
  }
  // The server's SSRF guard refuses this machine's addresses by default, which is what a local listener is
  // (a registered endpoint shows the server already lets them through).
  if (!registered) lines.push('The server must let deliveries reach this machine: start it with --allow-local-webhooks (or webhooks.outbound.allowNetworks: [127.0.0.1, "::1"] in its config).\n');
  return lines.join('');
}

/** A problem+json answer in one line: its detail (or title), else the status. */
async function problemText(res: Response): Promise<string> {
  const text = await res.text();
  try {
    const problem = JSON.parse(text) as { detail?: string; title?: string; errors?: { detail?: string }[] };
    // A 422 says what is wrong with each field in errors[]: the endpoint's url is the one that matters here.
    const fields = (problem.errors ?? []).map((e) => e.detail).filter(Boolean);
    return `${res.status} ${problem.detail ?? problem.title ?? text}${fields.length ? `: ${fields.join('; ')}` : ''}`;
  } catch {
    return `${res.status} ${text.slice(0, 200)}`;
  }
}

/**
 * `hooks listen --register`: creates an endpoint delivering every event to the listener, signed with
 * its secret, through the server's own API (so the server's rules apply: the token needs
 * `webhooks:write`, and the SSRF guard must let this machine through). Returns the endpoint's id.
 */
export async function registerEndpoint(server: string, token: string, listener: HooksListener): Promise<string> {
  let res: Response;
  try {
    res = await fetch(`${server}/webhook-endpoints`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: listener.url, secret: listener.secret, description: 'restwell hooks listen' }),
    });
  } catch (err) {
    throw new InvalidArgumentError(`--register: no Restwell server answers at ${server} (${(err as Error & { cause?: Error }).cause?.message ?? (err as Error).message}); say where it listens with --url`);
  }
  if (res.status !== 201) {
    const why = await problemText(res);
    const hint = res.status === 422 && /allowNetworks|refused/.test(why) ? ' (start the server with --allow-local-webhooks to let deliveries reach this machine)' : res.status === 401 || res.status === 403 ? ' (--token needs a key with webhooks:write)' : '';
    throw new InvalidArgumentError(`--register: ${server} refused the endpoint: ${why}${hint}`);
  }
  return ((await res.json()) as { id: string }).id;
}

/** Deletes the endpoint `--register` made; a failure is only reported (the endpoint stays, visible in the list). */
async function unregister(server: string, token: string, id: string): Promise<void> {
  const res = await fetch(`${server}/webhook-endpoints/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } }).catch((err: Error) => err);
  if (res instanceof Error || (res.status !== 204 && res.status !== 404)) {
    process.stderr.write(`could not delete endpoint ${id} on ${server} (${res instanceof Error ? res.message : await problemText(res)}); delete it with DELETE /webhook-endpoints/${id}\n`);
  }
}

/** `restwell hooks listen`: a local receiver printing the verified deliveries it gets, until Ctrl-C. */
export async function hooksListen(options: HooksListenOptions): Promise<void> {
  const token = options.token ?? process.env.RESTWELL_TOKEN;
  if (options.register && !token) throw new InvalidArgumentError('--register needs a token with webhooks:write: --token "$TOKEN" (or env RESTWELL_TOKEN)');
  const server = serverUrl(options);
  const listener = await startHooksListener(options, (t) => process.stdout.write(t), (t) => process.stderr.write(t));
  let registered: string | undefined;
  if (options.register) {
    try {
      registered = await registerEndpoint(server, token!, listener);
    } catch (err) {
      await listener.close();
      throw err;
    }
  }
  process.stdout.write(listenBanner(listener, server, registered));
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  if (registered) await unregister(server, token!, registered);
  await listener.close();
  process.stdout.write('Stopped.\n');
}
