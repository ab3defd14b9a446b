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
}

declare module 'fastify' {
  interface FastifyInstance {
    restwell: AppContext;
  }
  interface FastifyRequest {
    /** The authenticated subject (token `sub` or API key owner), when there is one. */
    subject?: string;
  }
}

/** Builds the context for a config and an opened store. */
export function createContext(config: RestwellConfig, store: Store): AppContext {
  const list = defineResources(config);
  return {
    config,
    store,
    resources: new Map(list.map((r) => [r.name, r])),
    validators: new Map(list.map((r) => [r.name, new RecordValidator(r, list)])),
    publicUrl: config.server.publicUrl?.replace(/\/$/, ''),
  };
}
