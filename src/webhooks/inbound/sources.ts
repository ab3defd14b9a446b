import { ConfigError } from '../../config/load.js';
import { parseBytes, parseDuration } from '../../config/sizes.js';
import type { RestwellConfig, WebhookActionConfig, WebhookSourceConfig } from '../../config/types.js';
import type { ResourceDefinition } from '../../core/resource.js';
import type { RecordValidator } from '../../core/validate.js';
import type { ProviderName } from './providers/index.js';
import { checkVerifyConfig, schemeFor, type SchemeName, type VerifyConfig } from './verifiers/index.js';

/** The `store` action, ready to run: its resource, validator and field → path mapping. */
export interface StoreAction {
  resource: ResourceDefinition;
  validator: RecordValidator;
  /** Explicit mapping; undefined means "every field whose name the message has". */
  map?: Record<string, string[]>;
}

/** The `reply` action, ready to run. */
export interface ReplyAction {
  resource: ResourceDefinition;
  by: string;
  template: string;
  fallback?: string;
}

/** A configured source, compiled once at start-up so no request re-reads the config. */
export interface Source {
  name: string;
  provider: ProviderName;
  verify: VerifyConfig;
  scheme: SchemeName;
  bodyLimit: number;
  /** Deepest JSON nesting a payload may have (`server.maxJsonDepth`). */
  maxJsonDepth: number;
  rateLimit?: { name: string; limit: number; windowSeconds: number };
  idHeader?: string;
  idPath?: string[];
  store?: StoreAction;
  reply?: ReplyAction;
  emit: boolean;
  /** True when actions run after the response (store, emit). */
  hasAsync: boolean;
}

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Compiles `webhooks.sources` against the resources. Every problem (a verify config its provider
 * cannot use, an action naming an unknown resource or field) is collected and thrown as one
 * ConfigError naming the keys, so a bad source stops start-up instead of failing each delivery.
 */
export function compileSources(config: RestwellConfig, resources: Map<string, ResourceDefinition>, validators: Map<string, RecordValidator>): Map<string, Source> {
  const problems: string[] = [];
  const sources = new Map<string, Source>();
  for (const [name, sc] of Object.entries(config.webhooks.sources)) {
    const at = `webhooks.sources.${name}`;
    const before = problems.length;
    problems.push(...checkVerifyConfig(sc.provider, sc.verify).map((p) => `${at}.${p}`));
    const source = compileActions(name, sc, config, resources, validators, (p) => problems.push(`${at}.${p}`));
    if (problems.length === before) sources.set(name, source);
  }
  if (problems.length) throw new ConfigError(problems, 'config');
  return sources;
}

function compileActions(
  name: string,
  sc: WebhookSourceConfig,
  config: RestwellConfig,
  resources: Map<string, ResourceDefinition>,
  validators: Map<string, RecordValidator>,
  problem: (p: string) => void,
): Source {
  const provider = sc.provider as ProviderName;
  const verify = sc.verify as VerifyConfig;
  let scheme: SchemeName = 'none';
  try {
    scheme = schemeFor(provider, verify);
  } catch {
    /* reported by checkVerifyConfig */
  }
  const source: Source = {
    name,
    provider,
    verify,
    scheme,
    bodyLimit: sc.bodyLimit === undefined ? config.server.bodyLimit : parseBytes(sc.bodyLimit),
    maxJsonDepth: config.server.maxJsonDepth,
    rateLimit: sc.rateLimit && { name: `webhooks.${name}`, limit: sc.rateLimit.limit, windowSeconds: parseDuration(sc.rateLimit.window) },
    idHeader: sc.idHeader?.toLowerCase(),
    idPath: sc.idPath?.split('.'),
    emit: false,
    hasAsync: false,
  };
  (sc.actions ?? []).forEach((action: WebhookActionConfig, i) => {
    const at = `actions.${i}`;
    if ('store' in action) {
      const resource = resources.get(action.store);
      if (!resource) return problem(`${at}.store: no resource named "${action.store}"`);
      if (source.store) return problem(`${at}: only one store action per source`);
      for (const field of Object.keys(action.map ?? {})) {
        if (!resource.fieldsByName.has(field)) problem(`${at}.map.${field}: ${action.store} has no field "${field}"`);
      }
      const map = action.map && Object.fromEntries(Object.entries(action.map).map(([f, path]) => [f, path.split('.')]));
      source.store = { resource, validator: validators.get(resource.name)!, map };
    } else if ('reply' in action) {
      const r = action.reply;
      const resource = resources.get(r.lookup);
      if (!resource) return problem(`${at}.reply.lookup: no resource named "${r.lookup}"`);
      if (!resource.fieldsByName.has(r.by)) return problem(`${at}.reply.by: ${r.lookup} has no field "${r.by}"`);
      for (const [, field] of r.template.matchAll(PLACEHOLDER)) {
        if (field !== 'id' && !resource.fieldsByName.has(field!)) problem(`${at}.reply.template: ${r.lookup} has no field "${field}"`);
      }
      if (source.reply) return problem(`${at}: only one reply action per source`);
      source.reply = { resource, by: r.by, template: r.template, fallback: r.fallback };
    } else {
      source.emit = true;
    }
  });
  if (source.reply && !['twilio', 'vonage'].includes(provider)) {
    problem(`actions: reply answers text messages; provider ${provider} sends none (use twilio or vonage)`);
  }
  source.hasAsync = Boolean(source.store) || source.emit;
  return source;
}
