import { readFileSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { Agent } from 'undici';
import type { OutboundConfig } from '../../config/types.js';
import { standardWebhooksHeaders } from '../standard-webhooks-signature.js';
import { AddressPolicy } from './address-policy.js';
import { describeSendError, DeliveryTimeoutError } from './send-errors.js';
import { guardedConnector, hostResolver, SsrfBlockedError, type HostResolver } from './guarded-connector.js';
import type { OutboundMessage, Sender, SendResult } from './types.js';

/** The most of a response body kept for the delivery log. */
export const EXCERPT_BYTES = 1024;
// Past this much body the connection is dropped rather than drained for reuse.
const DRAIN_BYTES = 64 * 1024;

const VERSION = (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** The User-Agent of webhook deliveries, so receivers can recognise (and allow-list) them. */
export const USER_AGENT = `Restwell-Webhooks/${VERSION}`;

// Headers that describe the connection or the body framing: undici sets them, and a user's value
// would break the request or smuggle a second one.
const RESERVED_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'te', 'trailer', 'expect', 'proxy-authorization', 'proxy-connection']);

/** Settings of a {@link WebhookSender}. */
export interface WebhookSenderOptions {
  settings: Pick<OutboundConfig, 'connectTimeoutMs' | 'timeoutMs' | 'allowNetworks' | 'dnsServers'>;
  /** Resolves host names instead of the system resolver or `settings.dnsServers`. */
  resolve?: HostResolver;
}

/**
 * Sends signed webhook deliveries (Standard Webhooks) over one pooled undici Agent whose every
 * connection passes the SSRF guard. Redirects are never followed: the receiver's URL is the one
 * the user registered, and a redirect could lead anywhere. Never throws for a bad receiver: every
 * outcome is a {@link SendResult}.
 */
export class WebhookSender implements Sender {
  readonly #agent: Agent;
  readonly #timeoutMs: number;
  readonly #connectTimeoutMs: number;

  constructor(options: WebhookSenderOptions) {
    const { settings } = options;
    this.#timeoutMs = settings.timeoutMs;
    this.#connectTimeoutMs = settings.connectTimeoutMs;
    const policy = new AddressPolicy(settings.allowNetworks);
    const resolve = options.resolve ?? hostResolver(settings.dnsServers, settings.connectTimeoutMs);
    this.#agent = new Agent({
      connect: guardedConnector({ policy, connectTimeoutMs: settings.connectTimeoutMs, resolve }),
      // The overall deadline below bounds each attempt; undici's own timers only guard against stalls.
      headersTimeout: settings.timeoutMs,
      bodyTimeout: settings.timeoutMs,
    });
  }

  async send(message: OutboundMessage): Promise<SendResult> {
    const started = performance.now();
    const result = (fields: Partial<SendResult>): SendResult => ({
      ok: false, statusCode: null, responseExcerpt: null, error: null, blocked: false,
      ...fields,
      latencyMs: Math.round(performance.now() - started),
    });
    let url: URL;
    let headers: Record<string, string>;
    try {
      url = new URL(message.url);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return result({ error: `${message.url} is not an http or https URL` });
      if (!message.secrets.length) return result({ error: 'the endpoint has no signing secret' });
      headers = this.#headers(message);
    } catch (err) {
      return result({ error: err instanceof TypeError ? `${message.url} is not a valid URL` : (err as Error).message });
    }
    // One deadline for the whole attempt, connecting included, so a slow-drip receiver cannot hold a delivery open.
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new DeliveryTimeoutError(this.#timeoutMs)), this.#timeoutMs);
    try {
      const res = await this.#agent.request({
        origin: url.origin,
        path: url.pathname + url.search,
        method: 'POST',
        headers,
        body: message.body,
        signal: deadline.signal,
      });
      const excerpt = await readExcerpt(res.body);
      const ok = res.statusCode >= 200 && res.statusCode < 300;
      return result({ ok, statusCode: res.statusCode, responseExcerpt: excerpt, error: ok ? null : statusError(res.statusCode, res.headers.location, url) });
    } catch (err) {
      const reason = deadline.signal.aborted ? deadline.signal.reason : err;
      return result({ error: describeSendError(reason, url, { connectTimeoutMs: this.#connectTimeoutMs, timeoutMs: this.#timeoutMs }), blocked: reason instanceof SsrfBlockedError });
    } finally {
      clearTimeout(timer);
    }
  }

  #headers(message: OutboundMessage): Record<string, string> {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(message.headers)) {
      const lower = name.toLowerCase();
      if (!RESERVED_HEADERS.has(lower) && !lower.startsWith('webhook-')) headers[lower] = value;
    }
    return {
      ...headers,
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      ...standardWebhooksHeaders({ secrets: message.secrets, id: message.id, body: message.body }),
    };
  }

  async close(): Promise<void> {
    await this.#agent.close();
  }
}

function statusError(status: number, location: string | string[] | undefined, url: URL): string {
  if (status >= 300 && status < 400) {
    const to = Array.isArray(location) ? location[0] : location;
    const target = to ? new URL(to, url).href : '(no Location header)';
    return `HTTP ${status}: redirect to ${target} not followed; set the endpoint's URL to the final address`;
  }
  return `HTTP ${status} from the receiver (a 2xx is success)`;
}

/**
 * The first {@link EXCERPT_BYTES} of a body as text. The rest is read and dropped, so the
 * connection can serve the next delivery, unless there is a lot of it: then the connection goes.
 */
function readExcerpt(body: Readable): Promise<string | null> {
  return new Promise((resolve) => {
    const kept: Buffer[] = [];
    let keptBytes = 0;
    let seen = 0;
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      const bytes = Buffer.concat(kept);
      // stream: true leaves out a character the cut split in two, instead of a replacement mark.
      resolve(bytes.length ? new TextDecoder('utf-8', { fatal: false }).decode(bytes, { stream: true }) : null);
    };
    body.on('data', (chunk: Buffer) => {
      seen += chunk.length;
      if (keptBytes < EXCERPT_BYTES) {
        const part = chunk.subarray(0, EXCERPT_BYTES - keptBytes);
        kept.push(part);
        keptBytes += part.length;
      }
      if (seen > DRAIN_BYTES) {
        body.destroy();
        finish();
      }
    });
    body.once('end', finish);
    body.once('close', finish);
    // A body cut short still leaves its status as the answer; the excerpt is what came.
    body.once('error', finish);
  });
}
