import type { FastifyBaseLogger } from 'fastify';
import type { SharedCounts } from '../../auth/shared-counts.js';
import type { OutboundConfig } from '../../config/types.js';
import type { Store } from '../../store/store.js';
import { eventBody } from './delivery-body.js';
import { Dispatcher } from './dispatcher.js';
import { EndpointRates } from './endpoint-rate.js';
import { AesSecretBox } from './secret-box.js';
import type { ResolvedSecretKey } from './secret-key.js';
import { WebhookSender } from './sender.js';
import type { SecretBox, SendResult } from './types.js';
import type { Audience } from '../../store/outbox.js';
import { CLOSED_AUDIENCE } from './owner-rights.js';
import type { OwnerWatch } from './owner-watch.js';

/** The outbound-webhook state of one server: the secret box, the sender and the dispatcher. */
export class OutboundHub {
  readonly settings: OutboundConfig;
  readonly secrets: SecretBox;
  /** The outbox worker; manual attempts (`POST …/attempts`) go through it too, whether or not it runs here. */
  readonly attempts: Dispatcher;
  log?: FastifyBaseLogger;
  /** Told the result of every delivery attempt this node makes and its endpoint's id (the app counts them for its metrics). */
  onAttempt?: (result: SendResult, endpointId: string) => void;
  /** Told of every delivery this node gives up on (the app counts them per endpoint for its metrics). */
  onGiveUp?: (endpointId: string) => void;
  private readonly sender: WebhookSender;
  /** What owned endpoints may receive, set by the app (it knows the resources); until then they receive nothing. */
  audience: Audience = CLOSED_AUDIENCE;
  /** Disables owned endpoints whose owner's credential was revoked, set by the app. */
  owners?: OwnerWatch;

  constructor(
    settings: OutboundConfig,
    store: Store,
    readonly key: ResolvedSecretKey,
    publicUrl: string | undefined,
    /** Counts the nodes share, so endpoints' rate limits hold for the cluster; without, each node counts its own. */
    shared?: SharedCounts,
  ) {
    this.settings = settings;
    this.secrets = new AesSecretBox(key.key);
    this.sender = new WebhookSender({ settings });
    this.attempts = new Dispatcher({
      outbox: store.outbox,
      sender: this.sender,
      secrets: this.secrets,
      body: eventBody(publicUrl),
      settings,
      onEventsAppended: (listener) => store.onEventsAppended(listener),
      log: () => this.log,
      observe: (result, endpointId) => this.onAttempt?.(result, endpointId),
      rates: new EndpointRates(shared),
      gaveUp: (claim) => this.onGiveUp?.(claim.endpoint.id),
      audience: (endpoint) => this.audience(endpoint),
    });
  }

  /** Starts the dispatcher unless this node only receives and serves (`webhooks.outbound.dispatch: false`). */
  start(): void {
    if (this.settings.dispatch) this.attempts.start();
    this.owners?.start();
  }

  /** Stops the dispatcher (attempts under way finish first) and closes the sender's connections. */
  async stop(): Promise<void> {
    this.owners?.stop();
    await this.attempts.stop();
    await this.sender.close();
  }
}
