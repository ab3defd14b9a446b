import type { EventRecord } from '../../core/events.js';
import type { OutboundAttempt, WebhookEndpoint } from '../../store/outbox.js';

/** One signing secret of an endpoint; during a rotation's overlap an endpoint has two. */
export interface EndpointSecret {
  /** `whsec_` + base64 of 24 to 64 random bytes (Standard Webhooks). */
  secret: string;
  createdAt: string;
  /** Set on the previous secret by a rotation: it stops signing at this time. */
  expiresAt?: string;
}

/** Seals endpoint secrets for storage (authenticated encryption) and opens them again. */
export interface SecretBox {
  seal(secrets: EndpointSecret[]): string;
  /** Throws when the sealed text was not sealed with this key or was altered. */
  open(sealed: string): EndpointSecret[];
  /** Seals one text (a credential header's value); the result is printable ASCII. */
  sealText(text: string): string;
  /** Throws like `open`. */
  openText(sealed: string): string;
}

/** What one HTTP attempt at a delivery came to. */
export interface SendResult {
  /** A 2xx came back. */
  ok: boolean;
  /** Null when no response came (refused, timed out, blocked). */
  statusCode: number | null;
  latencyMs: number;
  /** The start of the response body as text (at most 1 KiB), or null. */
  responseExcerpt: string | null;
  /** Why it failed, in words a user can act on; null on success. */
  error: string | null;
  /** The SSRF guard refused the address (logged as such). */
  blocked: boolean;
}

/** What the sender needs for one request: where, which event, signed with which secrets, with which extra headers. */
export interface OutboundMessage {
  url: string;
  headers: Record<string, string>;
  /** The secrets to sign with (each active one adds a signature). */
  secrets: string[];
  /** The `webhook-id`: the event's id, the same on every attempt (receivers de-duplicate by it). */
  id: string;
  /** The JSON body: the event as `GET /events/{id}` serves it. */
  body: string;
}

/** Sends signed webhook requests (Standard Webhooks) through the SSRF guard. */
export interface Sender {
  send(message: OutboundMessage): Promise<SendResult>;
  close(): Promise<void>;
}

/** The dispatcher, as the HTTP routes use it: a user's redelivery is one attempt made now. */
export interface ManualAttempts {
  /**
   * Makes one attempt at a delivery now and records it (trigger `manual`); resolves the attempt,
   * `busy` when another attempt at it is under way, or undefined when there is no such delivery.
   */
  attemptNow(endpointId: string, deliveryId: string): Promise<OutboundAttempt | 'busy' | undefined>;
  /**
   * Work was queued that no commit signal announces (a replay made deliveries due again and moved a
   * cursor back): a dispatcher running on this node takes it at once instead of at its next poll.
   * Other nodes take it at theirs. Does nothing where no dispatcher runs.
   */
  wake(): void;
  /**
   * Sends a test message (`body` makes it from its id and time) to the endpoint now, signed and
   * guarded as deliveries are, and resolves the outcome; nothing is recorded in the delivery log.
   */
  sendTest(endpoint: WebhookEndpoint, body: (id: string, sentAt: string) => string): Promise<TestSend>;
}

/** What a test send came to: the outcome, the `webhook-id` it carried, and when it was sent. */
export interface TestSend extends SendResult {
  id: string;
  sentAt: string;
}

/** The body of a delivery for an event, with links made absolute against `baseUrl` when known. */
export type EventBody = (event: EventRecord) => string;

export type { WebhookEndpoint };
