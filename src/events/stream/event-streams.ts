import type { FastifyBaseLogger } from 'fastify';
import type { StreamConfig } from '../../config/types.js';
import type { AuthContext } from '../../auth/http/auth-context.js';
import { CredentialWatch } from './credential-watch.js';
import { EventTail } from './event-tail.js';
import type { StreamClient, StreamEndReason } from './stream-client.js';

/** What an observer (the metrics) hears of the streams that open (send their 200) and end. */
export interface StreamObserver {
  opened(): void;
  closed(reason: StreamEndReason): void;
}

/** Who a stream serves, as its log lines name it: never a token, only the credential's public handle. */
export interface StreamHolder {
  /** `api-key`, `access-token`, `external`, or `anonymous` on a public log. */
  via: string;
  /**
   * The credential's public handle (its rate-limit key): `key:<id>` (an API key's id, not the key),
   * `client:<id>` (an OAuth client), `ext:<subject>` (an external issuer's subject); absent when anonymous.
   */
  principal?: string;
}

/** Bytes the tail hands out between turns of the event loop (less when a client's buffer is smaller). */
const YIELD_BYTES = 64 * 1024;

/**
 * Every open event stream of one server: the shared tail, the heartbeat (one timer for all
 * streams), the watch on their credentials (a revoked one ends its streams), the `maxClients` cap,
 * and ending them all at shutdown, which Fastify cannot do itself (it closes idle connections only,
 * and a stream never is).
 */
export class EventStreams {
  readonly config: StreamConfig;
  readonly tail: EventTail;
  readonly credentials: CredentialWatch;
  private readonly clients = new Set<StreamClient>();
  private heartbeat: NodeJS.Timeout | undefined;
  private closing = false;
  private readonly observers = new Set<StreamObserver>();
  private live = 0;

  constructor(
    ctx: AuthContext,
    readonly log: FastifyBaseLogger,
  ) {
    this.config = ctx.config.events.stream;
    this.tail = new EventTail(ctx.store, log, Math.min(YIELD_BYTES, Math.ceil(this.config.bufferBytes / 2)));
    this.credentials = new CredentialWatch(ctx.auth.revocations, this.config.credentialCheckMs, log);
  }

  /** True when no further stream may open (the cap is reached, or the server is closing). */
  get full(): boolean {
    return this.closing || this.clients.size >= this.config.maxClients;
  }

  /** Streams open now (those still being set up included). */
  get size(): number {
    return this.clients.size;
  }

  /** Streams open now that have sent their 200 (what {@link StreamObserver} counts). */
  get openStreams(): number {
    return this.live;
  }

  /** Tells `observer` of every stream that opens or ends from now on, until the returned function is called. */
  observe(observer: StreamObserver): () => void {
    this.observers.add(observer);
    return () => void this.observers.delete(observer);
  }

  /**
   * Marks a stream as open once its 200 is sent: logged (who, which types, whether it resumes)
   * and counted, and so is its end (why, after how long, how many events it was sent).
   */
  opened(client: StreamClient, log: FastifyBaseLogger, holder: StreamHolder, detail: { types: string[]; resumed: boolean }): void {
    const started = performance.now();
    this.live++;
    // Types are names from the config or made up by the client: a long list is cut, not logged whole.
    const types = detail.types.length ? detail.types.join(',').slice(0, 200) : undefined;
    log.info({ stream: 'opened', ...holder, types, resumed: detail.resumed, open: this.live }, 'event stream opened');
    for (const o of this.observers) o.opened();
    void client.ended.then(() => {
      this.live--;
      const reason = client.endReason;
      const seconds = Math.round((performance.now() - started) / 100) / 10;
      log.info({ stream: 'closed', ...holder, reason, seconds, events: client.eventsSent, open: this.live }, `event stream closed (${reason}) after ${seconds} s, ${client.eventsSent} events sent`);
      for (const o of this.observers) o.closed(reason);
    });
  }

  /** Counts a stream until its connection closes. */
  add(client: StreamClient): void {
    this.clients.add(client);
    this.heartbeat ??= setInterval(() => {
      for (const c of this.clients) c.heartbeat();
    }, this.config.heartbeatMs).unref();
    void client.ended.then(() => {
      this.clients.delete(client);
      this.tail.leave(client);
      if (!this.clients.size) {
        clearInterval(this.heartbeat);
        this.heartbeat = undefined;
      }
    });
  }

  /** Ends every stream and stops the tail; resolves once every stream's connection is closed. */
  async close(): Promise<void> {
    this.closing = true;
    this.tail.stop();
    this.credentials.stop();
    await Promise.all([...this.clients].map((c) => c.end('the server is shutting down', 'shutdown')));
  }
}

const byContext = new WeakMap<AuthContext, EventStreams>();

/** The streams of the server built on `ctx` (one set per server, however many apps share a process). */
export function eventStreams(ctx: AuthContext, log: FastifyBaseLogger): EventStreams {
  let streams = byContext.get(ctx);
  if (!streams) byContext.set(ctx, (streams = new EventStreams(ctx, log)));
  return streams;
}
