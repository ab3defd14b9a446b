import { AuthService } from '../auth/auth-service.js';
import type { AuthContext } from '../auth/http/auth-context.js';
import type { RestwellConfig } from '../config/types.js';
import { defineResources, type ResourceDefinition } from '../core/resource.js';
import { RecordValidator } from '../core/validate.js';
import type { Store } from '../store/store.js';
import { WebhookHub } from '../webhooks/inbound/hub.js';
import type { WebhookContext } from '../webhooks/inbound/http/webhook-context.js';
import { compileSources, type CompileOptions, type Source } from '../webhooks/inbound/sources.js';

/** Everything a route handler of any feature needs, built once at start-up. */
export interface AppContext extends AuthContext, WebhookContext {}

/** What the config alone decides: derived, and so fully checked, before anything is opened. */
export interface AppPlan {
  resources: Map<string, ResourceDefinition>;
  validators: Map<string, RecordValidator>;
  sources: Map<string, Source>;
}

/**
 * Checks the whole config against itself (resources, their relations, webhook sources and their
 * actions) without touching a database or a file; throws ConfigError naming every bad key.
 * `options.providers` replaces the webhook providers sources may name (tests add made-up ones).
 */
export function planApp(config: RestwellConfig, options: CompileOptions = {}): AppPlan {
  const list = defineResources(config);
  const resources = new Map(list.map((r) => [r.name, r]));
  const validators = new Map(list.map((r) => [r.name, new RecordValidator(r, list, config.server.maxJsonDepth)]));
  return { resources, validators, sources: compileSources(config, resources, validators, options) };
}

/** Builds the context for a config, its plan and an opened store. */
export function createContext(config: RestwellConfig, store: Store, plan: AppPlan = planApp(config)): AppContext {
  return {
    config,
    store,
    resources: plan.resources,
    validators: plan.validators,
    publicUrl: config.server.publicUrl?.replace(/\/$/, ''),
    auth: new AuthService(config, store),
    webhooks: new WebhookHub(plan.sources, store, config),
  };
}
