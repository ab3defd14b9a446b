import type { FastifyBaseLogger } from 'fastify';
import { RateLimiter } from '../../auth/rate-limiter.js';
import type { AppContext } from '../../app/context.js';
import { compileSources, type Source } from './sources.js';
import { InboxWorker } from './worker.js';

/** The inbound-webhook state of one server: compiled sources, rate limits and the inbox worker. */
export class WebhookHub {
  readonly sources: Map<string, Source>;
  readonly limiter = new RateLimiter();
  readonly worker: InboxWorker;
  /** The largest body any source accepts: the raw-body parser's limit (each source checks its own). */
  readonly maxBodyLimit: number;
  log?: FastifyBaseLogger;

  constructor(ctx: AppContext) {
    this.sources = compileSources(ctx.config, ctx.resources, ctx.validators);
    this.maxBodyLimit = Math.max(ctx.config.server.bodyLimit, ...[...this.sources.values()].map((s) => s.bodyLimit));
    this.worker = new InboxWorker(ctx.store.inbox, this.sources, () => this.log, ctx.config.webhooks.workerDelayMs);
  }

  /** Start-up warnings: unsigned sources, and what each source's provider warns of (replies it cannot carry). */
  warnings(): string[] {
    const out: string[] = [];
    for (const s of this.sources.values()) {
      if (s.scheme === 'none') out.push(`webhooks.sources.${s.name}: verify is none, so anyone who knows the URL can post deliveries to /webhooks/${s.name}`);
      out.push(...(s.provider.warnings?.({ name: s.name, replies: Boolean(s.reply) }) ?? []));
    }
    return out;
  }
}

const hubs = new WeakMap<AppContext, WebhookHub>();

/** The hub of a server context, built (and the sources compiled, throwing ConfigError) on first use. */
export function webhookHub(ctx: AppContext): WebhookHub {
  let hub = hubs.get(ctx);
  if (!hub) {
    hub = new WebhookHub(ctx);
    hubs.set(ctx, hub);
  }
  return hub;
}
