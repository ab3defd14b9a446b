/** The field types a resource may declare. */
export const FIELD_TYPES = ['string', 'integer', 'number', 'boolean', 'datetime', 'json', 'enum', 'reference'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** One field of a resource, as written in the config file. */
export interface FieldConfig {
  type: FieldType;
  required?: boolean;
  unique?: boolean;
  index?: boolean;
  default?: unknown;
  maxLength?: number;
  minLength?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  values?: string[];
  to?: string;
  description?: string;
  /**
   * The name (or names, for a field renamed more than once) this field had before. At start-up a
   * stored column under that name is renamed to this field's name, keeping its values; once done it
   * is a no-op, so it may stay in the config.
   */
  renamedFrom?: string | string[];
}

/** Who may perform an operation: everyone, holders of every listed scope, or the record's owner. */
export type AccessRule = 'public' | 'owner' | string[];

/** Access rules of a resource; `write` is the default for create, update and delete. */
export interface AccessConfig {
  read?: AccessRule;
  write?: AccessRule;
  create?: AccessRule;
  update?: AccessRule;
  delete?: AccessRule;
}

/**
 * How a resource's records are identified: `integer` (server-assigned 1, 2, 3…), `uuid` (UUID
 * text, lower-cased; the server draws a UUIDv7) or `string` (1–64 characters of `[A-Za-z0-9_-]`,
 * case-sensitive and kept exactly; the server draws a UUIDv7 text, which fits that rule).
 */
export type IdType = 'integer' | 'uuid' | 'string';

/** One resource (collection) as written in the config file. */
export interface ResourceConfig {
  id?: IdType;
  description?: string;
  fields: Record<string, FieldConfig>;
  access?: AccessConfig;
  /** PUT, PATCH and DELETE must be conditional (If-Match, or If-None-Match: * to create): 428 otherwise. */
  requireIfMatch?: boolean;
  /**
   * The fields `q=` searches (string or enum fields). Default: every string field; `false` (or an
   * empty list) turns `q=` off for this resource.
   */
  search?: string[] | false;
  /** How it answers: `json-server` as json-server 0.17 does, `hal` with Restwell's HAL API; default the top-level `compat`. */
  compat?: Compat;
  /**
   * One object rather than a collection (json-server's `"profile": {…}`): served at `/{name}`, it
   * holds at most one record, stored with id 1. No reference may point at it; its id type is integer.
   */
  singular?: boolean;
}

/**
 * `server.cors`: the origins whose pages may call the API (exact `https://app.example.com`, a port
 * wildcard `http://localhost:*`, a leftmost-label wildcard `https://*.example.com`, or `*` for any),
 * how long a browser may cache a preflight's answer, and whether pages may send credentials.
 */
export interface CorsConfig {
  origins: string[];
  maxAgeSeconds: number;
  /** Pages may send credentials (`Access-Control-Allow-Credentials: true`); the API reads none, so this only lets such pages work. */
  credentials: boolean;
}

/** The API a resource answers with: Restwell's HAL API, or json-server's shapes (the json-server profile). */
export type Compat = 'hal' | 'json-server';

/** The validated, defaults-applied configuration the server runs with. */
export interface RestwellConfig {
  server: {
    port: number;
    host: string;
    bodyLimit: number;
    /** Largest record (its field data as JSON, in bytes) a write may produce: see defaultRecordLimit. */
    recordLimit: number;
    /** Deepest nesting accepted in a JSON body, a stored json value or a webhook payload. */
    maxJsonDepth: number;
    /** Bounds of POST /batch and of a bulk create: sub-requests (or records) per transaction, and the batch body's bytes (at most bodyLimit). */
    batch: { maxRequests: number; maxBytes: number };
    /** Longest wait for the request line and headers (408 after it). */
    headersTimeoutMs: number;
    /** Longest wait for a whole request, body included (408 after it); never below headersTimeoutMs. */
    requestTimeoutMs: number;
    /** How long an idle keep-alive connection stays open. */
    keepAliveTimeoutMs: number;
    /** Open connections one client address may hold in one process; more are refused with 429. */
    maxConnectionsPerClient: number;
    /** Who may read GET /metrics: a token with metrics:read, anyone, or nobody (not served, nothing counted). */
    metrics: 'token' | 'public' | 'off';
    /** At shutdown, how long requests under way may take to finish before their connections are cut. */
    drainTimeoutMs: number;
    /** The dashboard's in-memory history of this node's metrics (GET /metrics/history): how often a sample is taken, how long samples are kept. */
    metricsHistory: { intervalMs: number; keepMs: number };
    publicUrl?: string;
    /** A folder of files served beside the API (a front-end), as given (relative to the working directory); none unless set. */
    static?: string;
    /** Which browser origins may call the API from their pages (CORS); none unless set. */
    cors?: CorsConfig;
  };
  database: string;
  /** Allow schema sync to drop or retype columns that the config no longer declares. */
  allowDestructiveMigrations: boolean;
  /** The API every resource answers with unless it says otherwise (default `hal`). */
  compat?: Compat;
  resources: Record<string, ResourceConfig>;
  idempotency: { ttlSeconds: number };
  webhooks: {
    sources: Record<string, WebhookSourceConfig>;
    /** Delay before the first try of a delivery's asynchronous actions (tests use it to widen the crash window). */
    workerDelayMs: number;
    outbound: OutboundConfig;
  };
  events: { stream: StreamConfig };
  /** How long each log is kept (`events.retention`, `webhooks.retention`, `webhooks.outbound.retention`) and how it is pruned (`retention`). */
  retention: RetentionConfig;
  auth: AuthFileConfig;
  /** A Redis server shared by the nodes (rate-limit counters, with `auth.rateLimitStore: redis`); none unless set. */
  redis?: RedisConfig;
  /** Where the config came from (its file, or the built-in demo config), named by errors found after loading. */
  origin?: string;
}

/** `webhooks.outbound`: how this node sends webhooks to the endpoints of `/webhook-endpoints`. */
export interface OutboundConfig {
  /** Run the dispatcher on this node (several nodes share the work); false only receives and serves. */
  dispatch: boolean;
  /** Wait before each retry, in order; a delivery is given up on after the last (jitter of ±20% is added). */
  retryScheduleMs: number[];
  /** An endpoint whose deliveries have failed without a success for this long is disabled. */
  disableAfterMs: number;
  connectTimeoutMs: number;
  /** Longest wait for the receiver's whole response after connecting. */
  timeoutMs: number;
  /** Deliveries in flight at once on this node. */
  concurrency: number;
  /** How often to look for due retries, expired leases and events other nodes wrote. */
  pollIntervalMs: number;
  /** Addresses (`127.0.0.1`, `10.0.0.0/8`, `::1`) the SSRF guard lets deliveries reach although they are private: for local development and tests. */
  allowNetworks: string[];
  /** DNS servers (`host` or `host:port`) that resolve endpoint hosts instead of the system's resolver. */
  dnsServers: string[];
  /** Key that encrypts endpoint secrets at rest (any string of 32+ characters); see webhooks/outbound/secret-key.ts when unset. */
  secretKey?: string;
  /** How long the previous secret keeps signing (both signatures are sent) after a rotation, unless the request says otherwise. */
  rotationOverlapMs: number;
}

/** What the background pruning keeps of each log; a null age or count keeps everything. */
export interface RetentionConfig {
  /** How often a pruning pass runs on each node. */
  intervalMs: number;
  /** Rows per DELETE statement (each batch is its own short write). */
  batchSize: number;
  events: { maxAgeMs: number | null; maxCount: number | null; partitionSize: number };
  /** Processed and failed inbound deliveries: a global age, and per source where a source sets its own. */
  inbox: { maxAgeMs: number | null; sources: Record<string, number | null> };
  /** Finished outbound deliveries (delivered or failed) and their attempts. */
  outbound: { maxAgeMs: number | null };
}

/** `events.stream`: the Server-Sent Events stream at `GET /events/stream`. */
export interface StreamConfig {
  /** A comment line is sent this often, so proxies and clients see a live connection. */
  heartbeatMs: number;
  /** Streams open at once on this node; more are refused with 503 and Retry-After. */
  maxClients: number;
  /** Bytes queued for one client that is not reading; past it the client is dropped (it resumes with Last-Event-ID). */
  bufferBytes: number;
  /** How often the credentials of open streams are checked again against the store (a revocation on any node ends them). */
  credentialCheckMs: number;
}

/** An external identity provider whose JWT access tokens are accepted (verified against its JWKS). */
export interface IssuerConfig {
  issuer: string;
  jwksUri: string;
  audience: string | string[];
  /** Require `typ: at+jwt` (RFC 9068); default true. Some providers send `JWT`: set false for them. */
  requireAtJwt?: boolean;
  /** Least time between two fetches of the JWKS (refetches on unknown kids are capped by it); default 30s. */
  jwksCooldown?: string;
}

/** A rate limit: `limit` requests per `window` (a duration such as 1m). */
export interface RateLimitFileConfig {
  limit: number;
  window: string;
}

/** The `auth` section as written in the config file (durations as text); see src/auth/auth-config.ts. */
export interface AuthFileConfig {
  /** `iss` of the tokens this server issues; default the server's origin (server.publicUrl, else host and port, decided at start; never a request's Host). */
  issuer?: string;
  /** `aud` of the tokens this server issues and requires; default the issuer. */
  audience?: string;
  tokenTtl?: string;
  /** How long a verified token is remembered, so auth does not dominate request cost. */
  cacheTtl?: string;
  signingAlgorithm?: 'EdDSA' | 'ES256';
  /** A signing key older than this is replaced on next use (old keys stay published until their tokens expire). */
  signingKeyLifetime?: string;
  issuers?: IssuerConfig[];
  /** Per credential (or per client IP when anonymous), counted where `rateLimitStore` says; `false` turns it off. */
  rateLimit?: false | (RateLimitFileConfig & { resources?: Record<string, RateLimitFileConfig> });
  /**
   * Where rate limits (these and the outbound endpoints' own) are counted: `memory` (each node on
   * its own), `database` (a table of the shared PostgreSQL database) or `redis` (`redis.url`).
   * Default: `database` where the database is shared by nodes (PostgreSQL), else `memory`.
   */
  rateLimitStore?: RateLimitStore;
  /** When the shared counter cannot be reached: let requests through, counted on this node meanwhile (true, default), or refuse them with 503 (false). */
  rateLimitFailOpen?: boolean;
}

/** Where rate limits are counted. */
export type RateLimitStore = 'memory' | 'database' | 'redis';

/** The `redis` section: a server every node reaches. */
export interface RedisConfig {
  /** `redis://[user:password@]host:port[/db]` or `rediss://…` (TLS). */
  url: string;
  /** Put before every key Restwell writes, so deployments sharing one server keep apart (default `restwell:`). */
  keyPrefix?: string;
}

/** Hash methods Vonage offers for signed SMS webhooks (`md5hash` is the legacy salted MD5). */
export type VonageSignatureMethod = 'md5hash' | 'md5' | 'sha1' | 'sha256' | 'sha512';

/** Keys of `webhooks.sources.<name>.verify`; which ones apply depends on the provider. */
export interface VerifyOptions {
  /** Signing secret: Standard Webhooks `whsec_…`, GitHub, Stripe `whsec_…`, Mailgun signing key, Vonage signature secret, or the shared header token. */
  secret?: string;
  /** Header carrying a shared token (with `secret`). */
  header?: string;
  /** HTTP Basic user name (with `password`). */
  username?: string;
  /** HTTP Basic password. */
  password?: string;
  /** Twilio auth token. */
  authToken?: string;
  /** Allowed clock difference in seconds, past and future (default 300). */
  tolerance?: number;
  /** The public URL the provider signs when Restwell sits behind a proxy (Twilio). */
  publicUrl?: string;
  /** Vonage signature method (default `sha256`). */
  algorithm?: VonageSignatureMethod;
}

/** `verify` of a webhook source: the keys its provider's scheme needs, or the explicit `none`. */
export type WebhookVerifyConfig = 'none' | VerifyOptions;

/** One action a verified delivery triggers: store a record, reply to a text message, or emit an event. */
export type WebhookActionConfig =
  | { store: string; /** record field → path in the normalized message, e.g. `subject: subject` */ map?: Record<string, string> }
  | { reply: { lookup: string; by: string; template: string; /** when nothing matches; `{text}` is the message */ fallback?: string } }
  | { emit: true };

/** `webhooks.sources.<name>`: one inbound endpoint, `POST /webhooks/<name>`. */
export interface WebhookSourceConfig {
  provider: string;
  verify: WebhookVerifyConfig;
  actions?: WebhookActionConfig[];
  description?: string;
  /** Header carrying the provider's event id, when the built-in choice does not fit. */
  idHeader?: string;
  /** Dotted path to the event id in a JSON body (or a form field name). */
  idPath?: string;
  /** Largest accepted body (bytes or a size such as 10mb); default server.bodyLimit. */
  bodyLimit?: number | string;
  /** Deliveries accepted per window from all senders together; off unless set. */
  rateLimit?: { limit: number; window: string };
  /** How long processed deliveries are kept (`30d` or `off`); default `webhooks.retention`. */
  retention?: string;
}
