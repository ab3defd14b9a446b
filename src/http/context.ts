import type { RestwellConfig } from '../config/types.js';
import type { ResourceDefinition } from '../core/resource.js';
import type { RecordValidator } from '../core/validate.js';
import type { Store } from '../store/store.js';
import type { ServerOrigin } from './server-origin.js';

/**
 * What every feature's handlers may use, built once at start-up: the config, the store and the
 * resources served. Features that need more (auth, webhooks) extend it; the app's context has all.
 */
export interface HttpContext {
  config: RestwellConfig;
  store: Store;
  resources: Map<string, ResourceDefinition>;
  validators: Map<string, RecordValidator>;
  /** The externally visible base URL without a trailing slash, when configured. */
  publicUrl?: string;
  /** This server's absolute base URL, decided at start (publicUrl, else host and port), never from a request. */
  origin: ServerOrigin;
}

declare module 'fastify' {
  interface FastifyInstance {
    restwell: HttpContext;
  }
  interface FastifyRequest {
    /** The authenticated subject (token `sub` or API key owner), when there is one. */
    subject?: string;
    /**
     * Set by an `owner` access rule: only records owned by this subject exist for this request
     * (others are 404 and absent from lists).
     */
    visibleOwner?: string;
  }
}
