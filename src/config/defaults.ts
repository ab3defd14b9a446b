/**
 * Every default in one place. The loader merges a user's file over `DEFAULTS`;
 * with no file at all, `DEMO_CONFIG` is served.
 */
export const DEFAULTS = {
  server: {
    port: 8080,
    host: '0.0.0.0',
    bodyLimit: '1mb',
    maxJsonDepth: 64,
    // A batch is one transaction that holds its rows locked: a hundred writes commit in milliseconds.
    batch: { maxRequests: 100 },
    // A real client sends its headers in well under a second and 1 MB of body in far less than 30 s;
    // a client dripping either is cut off (408) instead of holding a connection for minutes.
    headersTimeout: '10s',
    requestTimeout: '30s',
    // Longer than the 60 s idle timeout of common load balancers, so they never reuse a socket we just closed.
    keepAliveTimeout: '72s',
    // Far above what one real client (or the benchmark's 100 connections) opens; a brake on socket floods.
    maxConnectionsPerClient: 256,
    // Scrapers send a token (Prometheus supports bearer tokens); request counts and timings are not for everyone.
    metrics: 'token' as 'token' | 'public' | 'off',
    // Long enough for any request within requestTimeout's usual share; short of the 30 s orchestrators give before SIGKILL.
    drainTimeout: '10s',
    // The dashboard's history: a point every 10 s over the last hour (360 samples per node).
    metricsHistory: { interval: '10s', keep: '1h' },
  },
  // How long a browser may reuse a preflight's answer: long enough to spare most preflights, short enough for a config change to be seen soon.
  corsMaxAge: '10m',
  database: './data/restwell.db',
  allowDestructiveMigrations: false,
  idempotency: { ttl: '24h' },
  webhooks: {
    sources: {},
    workerDelayMs: 0,
    outbound: {
      dispatch: true,
      // The schedule Svix and Standard Webhooks suggest: about 28 hours in all before giving up.
      retrySchedule: ['5s', '5m', '30m', '2h', '5h', '10h', '10h'],
      disableAfter: '5d',
      connectTimeout: '5s',
      timeout: '15s',
      concurrency: 256,
      pollInterval: '1s',
      allowNetworks: [] as string[],
      dnsServers: [] as string[],
      rotationOverlap: '24h',
      // Long enough to look into last month's failures; pending deliveries are never pruned.
      retention: '30d',
    },
    // Per source too (webhooks.sources.<name>.retention); deliveries not yet processed are never pruned.
    retention: '30d',
  },
  // A pass a minute, deleting a thousand rows per statement: each a short write that never holds up requests.
  retention: { interval: '1m', batchSize: 1000 },
  events: {
    stream: { heartbeat: '15s', maxClients: 10000, bufferSize: '1mb', credentialCheck: '5s' },
    // A month, or a million events, whichever is less; a lagging subscriber holds back its own events.
    retention: { maxAge: '30d' as string, maxCount: 1_000_000 as number | 'off', partitionSize: 100_000 },
  },
  auth: {
    tokenTtl: '15m',
    cacheTtl: '10s',
    signingAlgorithm: 'EdDSA',
    signingKeyLifetime: '30d',
    issuers: [],
    // Generous for people, still a brake on scripts; benchmarks set `rateLimit: false`.
    rateLimit: { limit: 1000, window: '1m', resources: {} },
    // rateLimitStore has no fixed default: `database` where the store is shared by nodes (PostgreSQL), else `memory`.
    // A counter outage lets requests through, each node counting on its own: the limit degrades to one per node, service does not.
    rateLimitFailOpen: true,
  },
  redis: { keyPrefix: 'restwell:' },
} as const;

/**
 * The most `server.recordLimit` may be: one record, or one event carrying it, must stay far below
 * the longest string JavaScript can hold (about 512 MiB), so it can always be serialized and read.
 */
export const MAX_RECORD_LIMIT = 256 * 1024 ** 2;

/**
 * `server.recordLimit` when the config leaves it out: the request body limit, or a webhook source's
 * own larger `bodyLimit` when that source stores what it receives or emits it as an event (an
 * e-mail it accepts must fit in a record), never above MAX_RECORD_LIMIT.
 */
export function defaultRecordLimit(bodyLimit: number, storingSourceLimits: number[]): number {
  return Math.min(MAX_RECORD_LIMIT, Math.max(bodyLimit, ...storingSourceLimits));
}

/**
 * Access of a resource whose `access` block leaves an operation out (or has no block at all):
 * anyone may read, and writing (create, update, delete) needs a bearer token that carries the
 * scope `<resource>:write` (or the admin scope `*`, which grants every scope). Writes open to
 * everyone must be asked for, with `write: public`.
 */
export const DEFAULT_ACCESS = {
  read: 'public',
  write: (resource: string): string[] => [`${resource}:write`],
} as const;

/** The demo served on first start: characters, and messages that inbound e-mail will fill. */
export const DEMO_CONFIG = {
  resources: {
    characters: {
      description: 'Characters, each with a unique name and a phone number',
      fields: {
        name: { type: 'string', required: true, unique: true, maxLength: 200 },
        number: { type: 'string', maxLength: 40 },
      },
      access: { read: 'public', write: ['characters:write'] },
    },
    messages: {
      description: 'Inbound e-mail messages',
      fields: {
        from: { type: 'string' },
        to: { type: 'json' },
        subject: { type: 'string' },
        text: { type: 'string' },
        html: { type: 'string' },
        receivedAt: { type: 'datetime' },
        attachments: { type: 'json' },
      },
      // E-mail is private: reading needs a scope; inbound webhooks write through the store, not over HTTP.
      access: { read: ['messages:read'], write: ['messages:write'] },
    },
  },
  webhooks: {
    sources: {
      // Unset secrets are generated once and kept in data/demo-secrets.json (see webhooks/inbound/demo-secrets.ts).
      mail: {
        description: 'Inbound e-mail from Postmark (JSON, HTTP Basic): each message becomes a messages record',
        provider: 'postmark',
        verify: { username: '${MAIL_HOOK_USER}', password: '${MAIL_HOOK_PASSWORD}' },
        actions: [{ store: 'messages' }],
        bodyLimit: '10mb',
        rateLimit: { limit: 600, window: '1m' },
      },
      sms: {
        description: 'Inbound SMS from Twilio: a text naming a character is answered with its number',
        provider: 'twilio',
        verify: { authToken: '${TWILIO_AUTH_TOKEN}' },
        actions: [{ reply: { lookup: 'characters', by: 'name', template: '{name}: {number}' } }],
        rateLimit: { limit: 600, window: '1m' },
      },
    },
  },
};
