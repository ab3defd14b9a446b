import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { configAjv } from './ajv.js';
import { DEFAULTS, DEMO_CONFIG, MAX_RECORD_LIMIT, defaultRecordLimit } from './defaults.js';
import { substituteEnv } from './env.js';
import { checkFields } from './check-fields.js';
import { checkRenames } from './check-renames.js';
import { configSchema } from './schema.js';
import { searchProblems } from './search-problems.js';
import { parseBytes, parseDuration, parseDurationMs, parseRetention } from './sizes.js';
import type { RestwellConfig } from './types.js';

/** A config that cannot be used; the message names every key path at fault. */
export class ConfigError extends Error {
  constructor(readonly problems: string[], source: string) {
    super(`Invalid configuration (${source}):\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

const validateSchema = configAjv.compile(configSchema);

/** Options that override the file, highest precedence first: flags, then environment. */
export interface LoadOptions {
  file?: string;
  env?: NodeJS.ProcessEnv;
  overrides?: { port?: number; host?: string; database?: string; static?: string };
  /** Used where the file says nothing (what `serve <file.json>` adds, as json-server does). */
  fallbacks?: { static?: string; corsOrigins?: string[] };
}

/** Reads, substitutes, validates and completes a config; the demo config when no file is given. */
export function loadConfig(options: LoadOptions = {}): RestwellConfig {
  const env = options.env ?? process.env;
  const file = options.file ?? env.RESTWELL_CONFIG;
  const raw = file ? readConfigFile(file) : DEMO_CONFIG;
  return resolveConfig(raw, { ...options, env }, file ?? 'built-in demo config');
}

/** Validates an already-parsed config object (used by tests and by `loadConfig`). */
export function resolveConfig(raw: unknown, options: LoadOptions = {}, source = 'config'): RestwellConfig {
  const env = options.env ?? process.env;
  const missing: string[] = [];
  const substituted = substituteEnv(raw, env, [], missing) as Record<string, any>;
  if (missing.length) throw new ConfigError(missing, source);
  if (!validateSchema(substituted)) {
    throw new ConfigError(describeErrors(validateSchema.errors ?? []), source);
  }
  const problems = [...checkReferences(substituted), ...checkFields(substituted.resources ?? {}), ...checkRenames(substituted.resources ?? {})];
  if (problems.length) throw new ConfigError(problems, source);

  const server = { ...DEFAULTS.server, ...substituted.server };
  const port = options.overrides?.port ?? (env.PORT ? Number(env.PORT) : server.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError([`PORT: ${env.PORT} is not a port number`], source);
  const history = { ...DEFAULTS.server.metricsHistory, ...server.metricsHistory };
  const metricsHistory = { intervalMs: parseDurationMs(history.interval), keepMs: parseDurationMs(history.keep) };
  // A bound on the history's memory, whatever the config says.
  if (metricsHistory.keepMs / metricsHistory.intervalMs > 10_000) throw new ConfigError([`server.metricsHistory: keeping ${history.keep} at one sample every ${history.interval} is more than 10000 samples; sample less often or keep less`], source);
  const headersTimeoutMs = parseDuration(server.headersTimeout) * 1000;
  const requestTimeoutMs = parseDuration(server.requestTimeout) * 1000;
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new ConfigError([`server.headersTimeout: ${server.headersTimeout} is longer than server.requestTimeout (${server.requestTimeout}), which includes the headers`], source);
  }
  const bodyLimit = parseBytes(server.bodyLimit);
  const recordLimit = recordLimitOf(server.recordLimit, bodyLimit, substituted.webhooks?.sources ?? {});
  if (recordLimit > MAX_RECORD_LIMIT) throw new ConfigError([`server.recordLimit: ${server.recordLimit} is more than 256mb, the most a record may be`], source);
  return {
    server: {
      port,
      host: options.overrides?.host ?? env.HOST ?? server.host,
      bodyLimit,
      recordLimit,
      maxJsonDepth: server.maxJsonDepth,
      batch: { maxRequests: server.batch?.maxRequests ?? DEFAULTS.server.batch.maxRequests, maxBytes: Math.min(bodyLimit, server.batch?.maxBytes === undefined ? bodyLimit : parseBytes(server.batch.maxBytes)) },
      headersTimeoutMs,
      requestTimeoutMs,
      keepAliveTimeoutMs: parseDuration(server.keepAliveTimeout) * 1000,
      maxConnectionsPerClient: server.maxConnectionsPerClient,
      metrics: server.metrics,
      drainTimeoutMs: parseDurationMs(server.drainTimeout),
      metricsHistory,
      publicUrl: server.publicUrl,
      ...staticAndCors(server, options),
    },
    database: options.overrides?.database ?? env.DATABASE_URL ?? substituted.database ?? DEFAULTS.database,
    allowDestructiveMigrations: substituted.allowDestructiveMigrations ?? DEFAULTS.allowDestructiveMigrations,
    ...(substituted.compat ? { compat: substituted.compat } : {}),
    resources: substituted.resources ?? {},
    idempotency: { ttlSeconds: parseDuration(substituted.idempotency?.ttl ?? DEFAULTS.idempotency.ttl) },
    webhooks: {
      sources: substituted.webhooks?.sources ?? {},
      workerDelayMs: substituted.webhooks?.workerDelayMs ?? DEFAULTS.webhooks.workerDelayMs,
      outbound: outboundConfig({ ...DEFAULTS.webhooks.outbound, ...substituted.webhooks?.outbound }),
    },
    events: { stream: streamConfig({ ...DEFAULTS.events.stream, ...substituted.events?.stream }) },
    retention: retentionConfig(substituted),
    auth: substituted.auth ?? {},
    ...(substituted.redis ? { redis: substituted.redis } : {}),
    origin: source,
  };
}

/** `server.static` (flag, else file, else fallback) and `server.cors` (file, else fallback), when set. */
function staticAndCors(server: { static?: string; cors?: { origins: string[]; maxAge?: string; credentials?: boolean } }, options: LoadOptions): Pick<RestwellConfig['server'], 'static' | 'cors'> {
  const dir = options.overrides?.static ?? server.static ?? options.fallbacks?.static;
  const origins = server.cors?.origins ?? options.fallbacks?.corsOrigins;
  // The fallback is json-server's CORS, credentials and all, for front-ends that send them.
  const credentials = server.cors ? (server.cors.credentials ?? false) : true;
  return {
    ...(dir ? { static: dir } : {}),
    ...(origins ? { cors: { origins: origins.map((o) => o.toLowerCase()), maxAgeSeconds: parseDuration(server.cors?.maxAge ?? DEFAULTS.corsMaxAge), credentials } } : {}),
  };
}

/** `server.recordLimit` as given, else its default from the body limits (see defaultRecordLimit). */
function recordLimitOf(given: number | string | undefined, bodyLimit: number, sources: Record<string, { bodyLimit?: number | string; actions?: object[] }>): number {
  if (given !== undefined) return parseBytes(given);
  const storing = Object.values(sources).filter((s) => s.bodyLimit !== undefined && s.actions?.some((a) => 'store' in a || 'emit' in a));
  return defaultRecordLimit(bodyLimit, storing.map((s) => parseBytes(s.bodyLimit!)));
}

function outboundConfig(o: typeof DEFAULTS.webhooks.outbound & { secretKey?: string }): RestwellConfig['webhooks']['outbound'] {
  return {
    dispatch: o.dispatch,
    retryScheduleMs: o.retrySchedule.map(parseDurationMs),
    disableAfterMs: parseDuration(o.disableAfter) * 1000,
    connectTimeoutMs: parseDurationMs(o.connectTimeout),
    timeoutMs: parseDurationMs(o.timeout),
    concurrency: o.concurrency,
    pollIntervalMs: parseDurationMs(o.pollInterval),
    allowNetworks: [...o.allowNetworks],
    dnsServers: [...o.dnsServers],
    ...(o.secretKey ? { secretKey: o.secretKey } : {}),
    rotationOverlapMs: parseDuration(o.rotationOverlap) * 1000,
  };
}

function retentionConfig(c: Record<string, any>): RestwellConfig['retention'] {
  const worker = { ...DEFAULTS.retention, ...c.retention };
  const events = { ...DEFAULTS.events.retention, ...c.events?.retention };
  const inbox = parseRetention(c.webhooks?.retention ?? DEFAULTS.webhooks.retention);
  const sources: Record<string, number | null> = {};
  for (const [name, source] of Object.entries<{ retention?: string }>(c.webhooks?.sources ?? {})) {
    if (source.retention !== undefined) sources[name] = parseRetention(source.retention);
  }
  return {
    intervalMs: parseDurationMs(worker.interval),
    batchSize: worker.batchSize,
    events: { maxAgeMs: parseRetention(events.maxAge), maxCount: events.maxCount === 'off' ? null : events.maxCount, partitionSize: events.partitionSize },
    inbox: { maxAgeMs: inbox, sources },
    outbound: { maxAgeMs: parseRetention(c.webhooks?.outbound?.retention ?? DEFAULTS.webhooks.outbound.retention) },
  };
}

function streamConfig(s: typeof DEFAULTS.events.stream): RestwellConfig['events']['stream'] {
  return { heartbeatMs: parseDurationMs(s.heartbeat), maxClients: s.maxClients, bufferBytes: parseBytes(s.bufferSize), credentialCheckMs: parseDurationMs(s.credentialCheck) };
}

function readConfigFile(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError([`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`], file);
  }
  try {
    return extname(file) === '.json' ? JSON.parse(text) : parseYaml(text);
  } catch (err) {
    throw new ConfigError([`not valid ${extname(file) === '.json' ? 'JSON' : 'YAML'}: ${(err as Error).message}`], file);
  }
}

function describeErrors(errors: NonNullable<typeof validateSchema.errors>): string[] {
  const out = new Set<string>();
  for (const e of errors) {
    // oneOf/if wrappers repeat what their branches already said.
    if (e.keyword === 'oneOf' || e.keyword === 'if' || e.keyword === 'not') continue;
    const path = e.instancePath.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    let message = e.message ?? 'is invalid';
    if (e.keyword === 'additionalProperties') message = `unknown key "${(e.params as any).additionalProperty}"`;
    if (e.keyword === 'enum') message = `must be one of: ${(e.params as any).allowedValues.join(', ')}`;
    if (e.keyword === 'propertyNames') message = `"${(e.params as any).propertyName}" is not an allowed name`;
    if (e.keyword === 'required') message = `missing required key "${(e.params as any).missingProperty}"`;
    if (e.keyword === 'format' && (e.params as any).format === 'regex') message = 'is not a valid regular expression';
    if (e.keyword === 'uniqueItems') message = `lists the same value twice (items ${Math.min((e.params as any).i, (e.params as any).j)} and ${Math.max((e.params as any).i, (e.params as any).j)})`;
    if (e.keyword === 'minItems' && path.at(-1) === 'values') message = 'an enum needs at least one value';
    out.add(`${path.join('.') || '(root)'}: ${message}`);
  }
  return [...out];
}

/** Top-level paths the server itself serves; no resource may take them. */
const RESERVED = ['batch', 'events', 'problems', 'openapi.json', 'docs', 'webhooks', 'oauth', 'api-keys', 'subscriptions', 'webhook-endpoints', 'well-known', 'me', 'event-types'];

function checkReferences(config: Record<string, any>): string[] {
  const problems: string[] = [];
  const resources = config.resources ?? {};
  for (const [rname, resource] of Object.entries<any>(resources)) {
    if (RESERVED.includes(rname)) problems.push(`resources.${rname}: "${rname}" is a path the server itself serves; choose another name`);
    if (resource.singular && resource.id !== undefined && resource.id !== 'integer') {
      problems.push(`resources.${rname}.id: a singular resource holds one record, whose id is always 1; remove "id: ${resource.id}"`);
    }
    // One object for everyone: under an owner rule it would exist for its creator alone, and be "not set" to every other subject, who could not set it either.
    const ownerRules = Object.entries<unknown>(resource.access ?? {}).filter(([, rule]) => rule === 'owner').map(([op]) => op);
    if (resource.singular && ownerRules.length) {
      problems.push(`resources.${rname}.access.${ownerRules[0]}: a singular resource is one object shared by all, so it cannot have owner rules; use scopes`);
    }
    for (const [fname, field] of Object.entries<any>(resource.fields ?? {})) {
      if (field.type === 'reference' && !resources[field.to]) {
        problems.push(`resources.${rname}.fields.${fname}.to: no resource named "${field.to}"`);
      } else if (field.type === 'reference' && resources[field.to].singular) {
        problems.push(`resources.${rname}.fields.${fname}.to: "${field.to}" is singular (one object, not a collection of records), so nothing can refer to it; make it a collection, or drop the reference`);
      }
    }
    problems.push(...searchProblems(rname, resource));
  }
  return problems;
}
