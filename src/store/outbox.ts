import type { EventFilter } from '../core/event-filter.js';
import type { EventRecord } from '../core/events.js';
import type { EndpointBacklog } from './outbox-backlog.js';
import type { EventVisibility } from './event-query.js';

/** A per-endpoint rate limit: at most `limit` deliveries per `windowMs`, per node. */
export interface EndpointRateLimit {
  limit: number;
  windowMs: number;
}

/**
 * The rights of the subscriber that owns an endpoint, as delivery needs them: the endpoint receives
 * only the events these rights may read. They are kept as of the endpoint's creation (or its owner's
 * last change to it), because a token's scopes are stored nowhere else: a JWT's live only in the
 * token. `credential` names what a revocation deletes (an API key's hash, an OAuth client's id), so
 * the endpoint can be disabled when it no longer stands.
 */
export interface OwnerAccess {
  /** How the owner authenticated, in the words of `GET /me`. */
  kind: 'api-key' | 'oauth-client' | 'jwt';
  scopes: string[];
  /** For `api-key`: the key's stored document id (its SHA-256); for `oauth-client`: the client id. Absent for JWTs of other issuers. */
  credential?: string;
}

/**
 * Decides, per endpoint, which events it may receive: undefined lets it receive every event it
 * subscribes to (an operator's endpoint), a visibility limits it to what its owner may read.
 */
export type Audience = (endpoint: WebhookEndpoint) => EventVisibility | undefined;

/** A subscriber of outbound webhooks, as the outbox keeps it. */
export interface WebhookEndpoint {
  /** Public id, `ep_…` (time-ordered, so it is also the listing order). */
  id: string;
  url: string;
  description: string | null;
  /** Event type patterns it receives (`characters.*`, `characters.created`); null means every event. */
  eventTypes: string[] | null;
  /** A disabled endpoint is paused: nothing is derived for it or sent to it until it is enabled again, then it resumes where it stopped. */
  enabled: boolean;
  /** Why it was disabled (by the dispatcher: a 410, or failing for too long; by a user: null). */
  disabledReason: string | null;
  /** Extra request headers sent with every delivery. */
  headers: Record<string, string>;
  rateLimit: EndpointRateLimit | null;
  /** The signing secrets, sealed by the webhooks layer (the store never sees them in clear). */
  sealedSecrets: string;
  /** The last event position derived into deliveries for this endpoint. */
  cursor: number;
  /** When deliveries to it started failing without a success since; null while it is healthy. */
  failingSince: string | null;
  /** Increases on every change a user makes (the ETag); the dispatcher's bookkeeping does not change it. */
  version: number;
  createdAt: string;
  updatedAt: string;
  owner: string | null;
  /** The rights of the subscriber that owns it (it receives only what they may read); null for an operator's endpoint, which receives every event it subscribes to. */
  ownerAccess: OwnerAccess | null;
  /** Only events of one collection's record, or whose record matches field conditions (core/event-filter.ts); null: every event. */
  filter: EventFilter | null;
}

/** What a user sets on an endpoint (create, replace or patch). */
export type EndpointInput = Pick<WebhookEndpoint, 'url' | 'description' | 'eventTypes' | 'enabled' | 'headers' | 'rateLimit' | 'sealedSecrets' | 'filter'> & {
  /** The owner's rights to store; left out, they stay as they are (none for a new endpoint). */
  ownerAccess?: OwnerAccess | null;
};

/** What an endpoint update decider wants done: put these values, delete it, or keep it as it is. */
export type EndpointDecision = { put: EndpointInput } | { delete: true } | { keep: true };

/** Where a delivery stands: waiting (to be sent, or retried), delivered (a 2xx), or given up on. */
export type OutboundStatus = 'pending' | 'delivered' | 'failed';

/** One event to send to one endpoint: derived from the event log, never written by a request. */
export interface OutboundDelivery {
  /** Position in the outbox (keyset cursor for listing), increasing. */
  seq: number;
  /** Public id, `msg_…`. */
  id: string;
  endpointId: string;
  eventSeq: number;
  eventId: string;
  eventType: string;
  status: OutboundStatus;
  /** Attempts made or under way (a claim counts one). */
  attempts: number;
  /** The attempt count when automatic retries last (re)started: a replay starts the retry schedule again from here. */
  retryFrom: number;
  /** When it is next due (pending only). */
  nextAttemptAt: string | null;
  lastAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: string;
  deliveredAt: string | null;
}

/** How an attempt was started: by the dispatcher, or by a user (`POST …/attempts`). */
export type AttemptTrigger = 'automatic' | 'manual';

/** One HTTP request made for a delivery, and what came back. */
export interface OutboundAttempt {
  deliveryId: string;
  /** 1, 2, 3… within the delivery. */
  number: number;
  trigger: AttemptTrigger;
  startedAt: string;
  /** The response status; null when no response came (refused, timed out, blocked by the SSRF guard). */
  statusCode: number | null;
  latencyMs: number;
  /** The start of the response body (at most 1 KiB of text). */
  responseExcerpt: string | null;
  /** Why it failed, when it did (network error, timeout, SSRF refusal, non-2xx). */
  error: string | null;
  /** The node that made it. */
  node: string;
}

/** A lease on deliveries: only `node` may attempt them until `until`; `token` proves the lease when the outcome is recorded. */
export interface Lease {
  node: string;
  token: string;
  until: string;
  /** The time the claim is made at (what is due is due by then). */
  now: string;
}

/** A delivery leased to a node, with everything needed to send it. */
export interface ClaimedDelivery {
  delivery: OutboundDelivery;
  endpoint: WebhookEndpoint;
  event: EventRecord;
  /** The attempt number this claim makes (the delivery's attempt count after the claim). */
  attempt: number;
  leaseToken: string;
}

/** What an attempt's outcome does to its delivery and endpoint, written with the attempt in one transaction. */
export interface AttemptRecord {
  attempt: Omit<OutboundAttempt, 'deliveryId'>;
  /** The delivery after it: delivered, failed (given up), or pending again at `nextAttemptAt`. */
  status: OutboundStatus;
  nextAttemptAt: string | null;
  /** Endpoint health: `failingSince` to set (a failure) or clear (null, a success); `disable` with a reason disables it. */
  endpoint?: { failingSince?: string | null; disable?: string };
}

/** One attempt to record: what `recordAttempt` takes, for a batch. */
export interface AttemptOutcome {
  deliveryId: string;
  leaseToken: string;
  record: AttemptRecord;
}

/** A page of an endpoint's deliveries, newest first or oldest first. */
export interface DeliveryQuery {
  /** Keyset position: deliveries after (oldest first) this seq. */
  after?: number;
  limit: number;
  status?: OutboundStatus;
  eventType?: string;
}

/**
 * The durable outbox of outbound webhooks. Deliveries are derived from the event log (the
 * transactional outbox every write already fills), so nothing is sent for a write that rolled back
 * and nothing committed is skipped, across restarts, crashes and several nodes.
 */
export interface Outbox {
  /** Creates an endpoint; it receives events committed after this (its cursor starts at the log's current end). */
  createEndpoint(input: EndpointInput, owner: string | null): Promise<WebhookEndpoint>;
  getEndpoint(id: string): Promise<WebhookEndpoint | undefined>;
  /** Endpoints oldest first, after an id (keyset). */
  listEndpoints(query: { after?: string; limit: number; owner?: string }): Promise<WebhookEndpoint[]>;
  /** The enabled endpoints that have owner rights (a subscriber's), for the check that their credentials still stand. */
  ownedEndpoints(): Promise<WebhookEndpoint[]>;
  /** Disables an enabled endpoint with a reason (its owner's credential was revoked); false when it was not enabled. */
  disableEndpoint(id: string, reason: string): Promise<boolean>;
  /**
   * Changes or deletes an endpoint as `decide` says, atomically (it sees the current endpoint,
   * undefined when there is none, and may throw a DomainError to refuse: If-Match and the like).
   * Deleting an endpoint deletes its deliveries and their attempts. Enabling one clears its disabled reason.
   * A put for an endpoint that does not exist changes nothing (`unchanged`): endpoints are made by createEndpoint.
   */
  updateEndpoint(id: string, decide: (current: WebhookEndpoint | undefined) => EndpointDecision): Promise<{ outcome: 'updated' | 'deleted' | 'unchanged'; endpoint?: WebhookEndpoint }>;

  /**
   * Derives deliveries from events committed since each enabled endpoint's cursor (up to `limit`
   * events), moving the cursors in the same transaction. With `lease`, the new deliveries are
   * claimed by the caller at once (attempt 1) and returned for sending; `more` says the log had more.
   * Nodes running it concurrently never derive one delivery twice. With `audience`, an endpoint
   * that has owner rights gets only the events they may read (the others only move its cursor).
   */
  deriveDeliveries(limit: number, lease?: Lease, audience?: Audience): Promise<{ claimed: ClaimedDelivery[]; derived: number; more: boolean }>;
  /**
   * Claims up to `limit` pending deliveries that are due by `lease.now` and not leased (or whose
   * lease ran out: a node died mid-attempt), of enabled endpoints. Rows another node is claiming
   * at the same moment are skipped, not waited for (FOR UPDATE SKIP LOCKED where the engine has it).
   */
  claimDue(limit: number, lease: Lease): Promise<ClaimedDelivery[]>;
  /** Claims one delivery whatever its status (a manual redelivery); undefined when it is leased now, or does not exist. */
  claimDelivery(endpointId: string, deliveryId: string, lease: Lease): Promise<ClaimedDelivery | undefined>;
  /**
   * Records an attempt and its outcome. The attempt is always kept (it happened); the delivery and
   * endpoint change only while `leaseToken` still holds the lease (resolves false otherwise).
   */
  recordAttempt(deliveryId: string, leaseToken: string, record: AttemptRecord): Promise<boolean>;
  /**
   * Records many attempts, each as `recordAttempt` would (each all or nothing, the attempt always
   * kept), in as few transactions as the outcomes allow: those that leave their endpoint alone go
   * in one. Settles, per outcome in order, to what `recordAttempt` resolves (or why it failed).
   */
  recordAttempts(outcomes: AttemptOutcome[]): Promise<PromiseSettledResult<boolean>[]>;
  /** Gives a lease back without an attempt (the endpoint's rate limit deferred it), due again at `nextAttemptAt`. */
  release(deliveryId: string, leaseToken: string, nextAttemptAt: string): Promise<void>;
  /**
   * Sends again every delivery of the endpoint whose event was committed at or after `since`
   * (only failed ones with `failedOnly`), and derives the ones it never had (events from before it
   * existed); resolves how many existing deliveries were queued again.
   */
  replay(endpointId: string, since: string, options: { failedOnly: boolean; now: string }): Promise<number>;

  getDelivery(endpointId: string, id: string): Promise<OutboundDelivery | undefined>;
  listDeliveries(endpointId: string, query: DeliveryQuery): Promise<OutboundDelivery[]>;
  /** A delivery's attempts, oldest first. */
  listAttempts(deliveryId: string): Promise<OutboundAttempt[]>;
  /** Every endpoint's pending deliveries and how old the oldest is (one grouped read: for metrics and the shutdown log). */
  backlog(): Promise<EndpointBacklog[]>;
}
