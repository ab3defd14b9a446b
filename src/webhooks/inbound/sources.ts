import { ConfigError } from '../../config/load.js';
import { parseBytes, parseDuration } from '../../config/sizes.js';
import type { RestwellConfig, WebhookActionConfig, WebhookSourceConfig } from '../../config/types.js';
import type { ResourceDefinition } from '../../core/resource.js';
import type { RecordValidator } from '../../core/validate.js';
import type { ProviderDescriptor } from './providers/provider-descriptor.js';
import { findProvider, PROVIDERS, unknownProvider } from './providers/registry.js';
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
  provider: ProviderDescriptor;
  verify: VerifyConfig;
  scheme: SchemeName;
  bodyLimit: number;
  /** Deepest JSON nesting a payload may have (`server.maxJsonDepth`). */
  maxJsonDepth: number;
  /** Largest event `emit` may write, as JSON (`server.recordLimit`): an event is bounded as a record is. */
  recordLimit: number;
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

/** What {@link compileSources} may be given besides the config. */
export interface CompileOptions {
  /** The providers sources may name; default {@link PROVIDERS}. */
  providers?: readonly ProviderDescriptor[];
}

/**
 * Compiles `webhooks.sources` against the providers and resources. Every problem (an unknown
 * provider, a verify config its provider cannot use, an action naming an unknown resource or field)
 * is collected and thrown as one ConfigError naming the keys and the config's origin, so a bad
 * source stops start-up instead of failing each delivery. Pure: it reads nothing and writes
 * nothing, so it can run before the database is opened.
 */
export function compileSources(
  config: RestwellConfig,
  resources: Map<string, ResourceDefinition>,
  validators: Map<string, RecordValidator>,
  options: CompileOptions = {},
): Map<string, Source> {
  const providers = options.providers ?? PROVIDERS;
  const problems: string[] = [];
  const sources = new Map<string, Source>();
  for (const [name, sc] of Object.entries(config.webhooks.sources)) {
    const at = `webhooks.sources.${name}`;
    const before = problems.length;
    const signing = sourceSigning(sc, providers);
    problems.push(...signing.problems.map((p) => `${at}.${p}`));
    const source = compileActions(name, sc, config, resources, validators, (p) => problems.push(`${at}.${p}`));
    if (signing.provider) checkProviderActions(source, signing.provider, providers, (p) => problems.push(`${at}.${p}`));
    if (problems.length === before && signing.provider && signing.scheme) sources.set(name, { ...source, provider: signing.provider, scheme: signing.scheme });
  }
  if (problems.length) throw new ConfigError(problems, config.origin ?? 'config');
  return sources;
}

/** What a source config says about who sends and how they sign, once checked. */
export interface SourceSigning {
  /** Its provider, unless the name is unknown. */
  provider?: ProviderDescriptor;
  /** The scheme its verify config selects, when the config is usable. */
  scheme?: SchemeName;
  /** What makes it unusable, each naming its key relative to the source (`provider: …`, `verify: …`). */
  problems: string[];
}

/**
 * The provider a source names and the scheme its `verify` selects: the one check that start-up,
 * `restwell hooks send` and the OpenAPI document all rely on.
 */
export function sourceSigning(sc: Pick<WebhookSourceConfig, 'provider' | 'verify'>, providers: readonly ProviderDescriptor[] = PROVIDERS): SourceSigning {
  const provider = findProvider(sc.provider, providers);
  if (!provider) return { problems: [`provider: ${unknownProvider(sc.provider, providers)}`] };
  const problems = checkVerifyConfig(provider, sc.verify);
  return problems.length ? { provider, problems } : { provider, scheme: schemeFor(provider, sc.verify as VerifyConfig), problems };
}

/** A source's actions that its provider cannot carry out. */
function checkProviderActions(source: CompiledActions, provider: ProviderDescriptor, providers: readonly ProviderDescriptor[], problem: (p: string) => void): void {
  if (source.reply && provider.kind !== 'sms') {
    const texting = providers.filter((p) => p.kind === 'sms').map((p) => p.name);
    problem(`actions: reply answers text messages; provider ${provider.name} sends none (use ${texting.join(' or ')})`);
  }
}

/** A source before its provider is resolved. */
type CompiledActions = Omit<Source, 'provider' | 'scheme'>;

function compileActions(
  name: string,
  sc: WebhookSourceConfig,
  config: RestwellConfig,
  resources: Map<string, ResourceDefinition>,
  validators: Map<string, RecordValidator>,
  problem: (p: string) => void,
): CompiledActions {
  const source: CompiledActions = {
    name,
    verify: sc.verify as VerifyConfig,
    bodyLimit: sc.bodyLimit === undefined ? config.server.bodyLimit : parseBytes(sc.bodyLimit),
    maxJsonDepth: config.server.maxJsonDepth,
    recordLimit: config.server.recordLimit,
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
      if (resource.singular) return problem(`${at}.store: ${action.store} is singular (one object), so it cannot take a record per delivery; store into a collection`);
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
  source.hasAsync = Boolean(source.store) || source.emit;
  return source;
}
