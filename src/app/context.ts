import { AuthService } from '../auth/auth-service.js';
import type { Principal } from '../auth/principal.js';
import type { RestwellConfig } from '../config/types.js';
import type { ResourceDefinition } from '../core/resource.js';
import { defineResources } from '../core/resource.js';
import { RecordValidator } from '../core/validate.js';
import type { Store } from '../store/store.js';

/** Everything a route handler needs, built once at start-up. */
export interface AppContext {
  config: RestwellConfig;
  store: Store;
  resources: Map<string, ResourceDefinition>;
  validators: Map<string, RecordValidator>;
  /** The externally visible base URL without a trailing slash, when configured. */
  publicUrl?: string;
  /** Bearer tokens, API keys, the OAuth token endpoint's state, rate limits. */
  auth: AuthService;
}

declare module 'fastify' {
  interface FastifyInstance {
    restwell: AppContext;
  }
  interface FastifyRequest {
    /** The authenticated subject (token `sub` or API key owner), when there is one. */
    subject?: string;
    /** The verified credential the request carries, when there is one. */
    principal?: Principal;
    /**
     * Set by an `owner` access rule: only records owned by this subject exist for this request
     * (others are 404 and absent from lists).
     */
    visibleOwner?: string;
  }
}

/** Builds the context for a config and an opened store. */
export function createContext(config: RestwellConfig, store: Store): AppContext {
  const list = defineResources(config);
  return {
    config,
    store,
    resources: new Map(list.map((r) => [r.name, r])),
    validators: new Map(list.map((r) => [r.name, new RecordValidator(r, list, config.server.maxJsonDepth)])),
    publicUrl: config.server.publicUrl?.replace(/\/$/, ''),
    auth: new AuthService(config, store),
  };
}
