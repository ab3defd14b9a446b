import type { FastifyBaseLogger } from 'fastify';
import type { StreamConfig } from '../../config/types.js';
import type { AuthContext } from '../../auth/http/auth-context.js';
import { CredentialWatch } from './credential-watch.js';
import { EventTail } from './event-tail.js';
import type { StreamClient } from './stream-client.js';

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

  /** Streams open now. */
  get size(): number {
    return this.clients.size;
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
    await Promise.all([...this.clients].map((c) => c.end('the server is shutting down')));
  }
}

const byContext = new WeakMap<AuthContext, EventStreams>();

/** The streams of the server built on `ctx` (one set per server, however many apps share a process). */
export function eventStreams(ctx: AuthContext, log: FastifyBaseLogger): EventStreams {
  let streams = byContext.get(ctx);
  if (!streams) byContext.set(ctx, (streams = new EventStreams(ctx, log)));
  return streams;
}
