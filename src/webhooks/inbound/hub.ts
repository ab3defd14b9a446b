import type { FastifyBaseLogger } from 'fastify';
import { RateLimiter } from '../../auth/rate-limiter.js';
import type { RestwellConfig } from '../../config/types.js';
import type { Store } from '../../store/store.js';
import type { Source } from './sources.js';
import { InboxWorker } from './worker.js';

/** The inbound-webhook state of one server: compiled sources, rate limits and the inbox worker. */
export class WebhookHub {
  readonly sources: Map<string, Source>;
  readonly limiter = new RateLimiter();
  readonly worker: InboxWorker;
  /** The largest body any source accepts: the raw-body parser's limit (each source checks its own). */
  readonly maxBodyLimit: number;
  log?: FastifyBaseLogger;

  /** `sources` are compiled (and so checked) before anything is opened; see `compileSources`. */
  constructor(sources: Map<string, Source>, store: Store, config: RestwellConfig) {
    this.sources = sources;
    this.maxBodyLimit = Math.max(config.server.bodyLimit, ...[...sources.values()].map((s) => s.bodyLimit));
    this.worker = new InboxWorker(store.inbox, sources, () => this.log, config.webhooks.workerDelayMs);
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
