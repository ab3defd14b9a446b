import { resolveAuthSettings, type AuthSettings } from '../auth/auth-config.js';
import { AuthService } from '../auth/auth-service.js';
import type { AuthContext } from '../auth/http/auth-context.js';
import type { SharedCounts } from '../auth/shared-counts.js';
import { ConfigError } from '../config/load.js';
import type { RestwellConfig } from '../config/types.js';
import { defineResources, type ResourceDefinition } from '../core/resource.js';
import { RecordValidator } from '../core/validate.js';
import type { Store } from '../store/store.js';
import { WebhookHub } from '../webhooks/inbound/hub.js';
import type { WebhookContext } from '../webhooks/inbound/http/webhook-context.js';
import { compileSources, type CompileOptions, type Source } from '../webhooks/inbound/sources.js';
import { OutboundHub } from '../webhooks/outbound/hub.js';
import type { OutboundContext } from '../webhooks/outbound/http/outbound-context.js';
import type { ResolvedSecretKey } from '../webhooks/outbound/secret-key.js';
import { ServerOrigin } from '../http/server-origin.js';
import { RetentionWorker } from '../store/retention/retention-worker.js';

/** Everything a route handler of any feature needs, built once at start-up. */
export interface AppContext extends AuthContext, WebhookContext, OutboundContext {
  outbound: OutboundHub;
  /** Prunes every log in the background (see store/retention). */
  retention: RetentionWorker;
}

/** What the config alone decides: derived, and so fully checked, before anything is opened. */
export interface AppPlan {
  resources: Map<string, ResourceDefinition>;
  validators: Map<string, RecordValidator>;
  sources: Map<string, Source>;
  auth: AuthSettings;
}

/**
 * Checks the whole config against itself (resources, their relations, rate-limit and auth
 * settings, webhook sources and their actions) without touching a database or a file; throws ConfigError naming every bad key.
 * `options.providers` replaces the webhook providers sources may name (tests add made-up ones).
 */
export function planApp(config: RestwellConfig, options: CompileOptions = {}): AppPlan {
  const list = defineResources(config);
  const resources = new Map(list.map((r) => [r.name, r]));
  const validators = new Map(list.map((r) => [r.name, new RecordValidator(r, list, config.server.maxJsonDepth, config.server.recordLimit)]));
  const problems: string[] = [];
  const sources = collect(problems, () => compileSources(config, resources, validators, options));
  const auth = collect(problems, () => resolveAuthSettings(config));
  if (!sources || !auth) throw new ConfigError(problems, config.origin ?? 'config');
  return { resources, validators, sources, auth };
}

/** The result of `check`, or undefined with its ConfigError's problems added to `problems` (every bad key is reported at once). */
function collect<T>(problems: string[], check: () => T): T | undefined {
  try {
    return check();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    problems.push(...err.problems);
    return undefined;
  }
}

/**
 * Builds the context for a config, its plan, an opened store and the key that seals endpoint
 * secrets; `shared` (openSharedCounts) makes rate limits, inbound API and outbound endpoint ones, hold for the cluster.
 */
export function createContext(config: RestwellConfig, store: Store, plan: AppPlan, secretKey: ResolvedSecretKey, shared?: SharedCounts): AppContext {
  const publicUrl = config.server.publicUrl?.replace(/\/$/, '');
  const origin = new ServerOrigin(publicUrl, config.server.host, config.server.port);
  return {
    config,
    store,
    resources: plan.resources,
    validators: plan.validators,
    publicUrl,
    origin,
    auth: new AuthService(config, store, plan.auth, () => origin.url, shared),
    webhooks: new WebhookHub(plan.sources, store, config),
    outbound: new OutboundHub(config.webhooks.outbound, store, secretKey, publicUrl, shared),
    retention: new RetentionWorker(store.retention, config.retention),
  };
}
