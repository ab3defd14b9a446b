import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { OutboundConfig } from '../../config/types.js';
import type { AttemptTrigger, Audience, ClaimedDelivery, Lease, OutboundAttempt, Outbox, WebhookEndpoint } from '../../store/outbox.js';
import { hiddenFromOwner } from './owner-rights.js';
import { newEventId } from '../../store/records.js';
import { AttemptRecorder } from './attempt-recorder.js';
import { EndpointRates } from './endpoint-rate.js';
import { automaticOutcome, manualOutcome } from './retry-policy.js';
import { openHeaders } from './sealed-headers.js';
import { activeSecrets } from './signing-secrets.js';
import type { EventBody, ManualAttempts, SecretBox, Sender, SendResult, TestSend } from './types.js';

/** What a dispatcher works with. */
export interface DispatcherOptions {
  outbox: Outbox;
  sender: Sender;
  secrets: SecretBox;
  body: EventBody;
  settings: OutboundConfig;
  /** Calls its listener whenever new events may be in the log (Store.onEventsAppended). */
  onEventsAppended: (listener: () => void) => () => void;
  log: () => FastifyBaseLogger | undefined;
  /** Told the result of every attempt as soon as the receiver answered (or did not): metrics. */
  observe?: (result: SendResult, endpointId: string) => void;
  /** Counts deliveries against endpoints' rate limits (shared by the nodes where so configured); default this node's own. */
  rates?: EndpointRates;
  /** Told of every delivery given up on (its last automatic attempt failed, and that is recorded): metrics. */
  gaveUp?: (claim: ClaimedDelivery) => void;
  /** What each owned endpoint may receive (its owner's read rights): applied when deliveries are derived, and again right before each is sent. */
  audience?: Audience;
}

// Time a lease leaves beyond one attempt's own limits: claiming, signing and recording the outcome.
const LEASE_MARGIN_MS = 10_000;
// Events read per derive pass at most, however many slots are free.
const DERIVE_BATCH = 500;
// Outcomes waiting to be written, per slot, before claiming stops: bounds memory when the database is slower than the receivers.
const RECORDING_FACTOR = 4;
// Claims queued per slot, at most, beyond the one being sent: a slot that frees takes the next delivery
// at once instead of waiting for a claim's round trips (the sends would otherwise stall in step with the
// claims, all in flight, then none). While a backlog is worked off the queue must outlast a whole claim
// pass, so the deliveries per second are at most the queue's length over a pass's time: with one
// queued per slot, 256 over a pass of 80 ms (a loaded database) capped them near 3,000/s.
const CLAIM_AHEAD_MAX = 3;
// How long a queued claim should wait for a slot, about: the queue holds as many per slot as sends of
// the usual length fit in this, so slow receivers keep one queued per slot (a claim that waited
// too long for its lease is given back unsent, then claimed again).
const QUEUE_WAIT_MS = 1000;
// The send time assumed before any has been measured: one queued per slot.
const FIRST_SEND_MS = QUEUE_WAIT_MS;
// Part of the claims held (slots and queue) that must be free before a freed slot starts a claim pass:
// a pass costs the same round trips for one delivery as for hundreds, and the rest of the queue keeps
// the slots busy meanwhile. A quarter of the slots (64 of 512) made every other pass claim only those
// 64 while the queue ran dry behind it; half of what is held makes every pass a large one.
const REFILL_PART = 2;
// After a pass that found nothing, a commit signal waits this long since that pass before the next one:
// a write burst that no endpoint subscribes to then costs at most 200 empty passes a second instead of
// one per commit (13% of a durable POST's CPU in the profile), and the first event after a quiet spell
// is still taken at once. A pass that finds work is followed at once, as before.
const EMPTY_PASS_GAP_MS = 5;

/**
 * The outbox worker of one node. It derives deliveries from the event log as soon as a commit
 * signals new events (and every `pollInterval`, for retries that fall due, leases that ran out and
 * events other nodes wrote), claims them under a lease, sends at most `concurrency` at once, and
 * records every attempt with its outcome. Several nodes share the work: claims skip what another
 * node holds, and a lease held by a node that died runs out, so another node retries it.
 * Per-endpoint ordering is not promised: retries of an earlier event may arrive after later ones.
 */
export class Dispatcher implements ManualAttempts {
  /** This node's name in leases and in the attempt log. */
  readonly node = `${hostname()}/${process.pid}/${randomUUID().slice(0, 8)}`;
  private readonly rates: EndpointRates;
  private readonly queue: ClaimedDelivery[] = [];
  /** Sends under way: each holds one of `concurrency` slots until its response (or failure) is in. */
  private readonly inflight = new Set<Promise<unknown>>();
  /** Outcomes being written: a send's slot frees as soon as it is answered, so waiting for a commit never idles the network. */
  private readonly recording = new Set<Promise<unknown>>();
  private readonly leaseMs: number;
  /** How long a slot is held per send, on average lately (ms): how deep the queue of claims may be. */
  private sendMs = FIRST_SEND_MS;
  /** Writes automatic attempts' outcomes in batches, a transaction for all answered meanwhile. */
  private readonly recorder: AttemptRecorder;
  private pumping = false;
  private again = false;
  /**
   * New events may be in the log (a commit signal, a poll, a derive that left more): the next pass
   * derives. Passes that only refill slots from a backlog (a replay, retries) skip the derive's reads,
   * which find nothing there and cost round trips (and on some engines wait for writers) every pass.
   */
  private deriveWanted = true;
  /** The last claim pass stopped because every slot was taken, so there may be more to claim once one frees. */
  private saturated = false;
  private stopped = true;
  private timer?: NodeJS.Timeout;
  private unlisten?: () => void;
  /** When the last pass ended, if it found nothing to send (performance.now()); 0 after a pass that found work. */
  private emptyPassEndedAt = 0;
  /** The pass a commit signal asked for, while it waits out EMPTY_PASS_GAP_MS. */
  private deferred?: NodeJS.Timeout;

  constructor(private readonly o: DispatcherOptions) {
    this.leaseMs = o.settings.connectTimeoutMs + o.settings.timeoutMs + LEASE_MARGIN_MS;
    this.rates = o.rates ?? new EndpointRates();
    this.recorder = new AttemptRecorder(o.outbox);
  }

  /** Starts delivering: at once, after every commit that appends events, and every poll interval. */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.unlisten = this.o.onEventsAppended(() => this.signalled());
    this.timer = setInterval(() => {
      this.deriveWanted = true;
      this.pump();
    }, this.o.settings.pollIntervalMs);
    this.timer.unref();
    this.pump();
  }

  /**
   * Stops claiming, waits for the attempts under way (each bounded by the send timeout) and gives
   * back what was claimed but not sent, so another node takes it at once instead of after the lease.
   */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.timer);
    clearTimeout(this.deferred);
    this.unlisten?.();
    const unsent = this.queue.splice(0);
    const now = new Date().toISOString();
    await Promise.allSettled([...this.inflight, ...unsent.map((c) => this.o.outbox.release(c.delivery.id, c.leaseToken, now))]);
    await Promise.allSettled([...this.recording]);
    await this.logLeftPending();
  }

  /** One line at shutdown: how many deliveries are still pending (for this node or another to send). */
  private async logLeftPending(): Promise<void> {
    const log = this.o.log();
    if (!log) return;
    try {
      const backlog = await this.o.outbox.backlog();
      const pending = backlog.reduce((n, b) => n + b.pending, 0);
      const endpoints = backlog.filter((b) => b.pending > 0).length;
      const line = { pending, endpoints, node: this.node };
      if (pending) log.warn(line, `webhook dispatcher stopped with ${pending} deliveries pending to ${endpoints} endpoint(s); they are sent once a dispatcher runs again`);
      else log.info(line, 'webhook dispatcher stopped with no deliveries pending');
    } catch (err) {
      log.warn({ err: (err as Error).message }, 'webhook dispatcher stopped; the deliveries left pending could not be counted');
    }
  }

  /** Makes one attempt at a delivery now, for a user (`POST …/attempts`), whatever its status. */
  async attemptNow(endpointId: string, deliveryId: string): Promise<OutboundAttempt | 'busy' | undefined> {
    const claim = await this.o.outbox.claimDelivery(endpointId, deliveryId, this.lease());
    if (!claim) return (await this.o.outbox.getDelivery(endpointId, deliveryId)) ? 'busy' : undefined;
    const { attempt, recorded } = await this.attempt(claim, 'manual');
    await recorded;
    return attempt;
  }

  /**
   * Sends a `webhook.test` message to the endpoint now, as a delivery would be sent (its URL, its
   * credential headers, signed with its active secrets, through the SSRF guard), and resolves what
   * came back. Nothing is derived or recorded: deliveries come from the event log only, and a test
   * event in the log would reach every endpoint subscribed to `*`.
   */
  async sendTest(endpoint: WebhookEndpoint, body: (id: string, sentAt: string) => string): Promise<TestSend> {
    const sentAt = new Date();
    const id = newEventId();
    const result = await this.deliver({ endpoint, id, body: body(id, sentAt.toISOString()), what: `test ${id}` }, sentAt.getTime());
    return { ...result, id, sentAt: sentAt.toISOString() };
  }

  /** A replay queued deliveries again: a pass now (deriving too, as the endpoint's cursor may have moved back), not at the next poll. */
  wake(): void {
    this.deriveWanted = true;
    this.pump();
  }

  /**
   * Claims to make: the slots and the queue's length (up to CLAIM_AHEAD_MAX per slot, as many as
   * sends of the recent length fit in QUEUE_WAIT_MS), less what is being sent or waits to be; none
   * while too many outcomes wait to be written.
   */
  private free(): number {
    if (this.recording.size >= this.o.settings.concurrency * RECORDING_FACTOR) return 0;
    return this.held() - this.inflight.size - this.queue.length;
  }

  /** Claims held at most, sent or queued: the slots, and up to CLAIM_AHEAD_MAX queued per slot (as many as sends of the recent length fit in QUEUE_WAIT_MS). */
  private held(): number {
    const ahead = Math.max(1, Math.min(CLAIM_AHEAD_MAX, Math.floor(QUEUE_WAIT_MS / Math.max(this.sendMs, 1))));
    return this.o.settings.concurrency * (1 + ahead);
  }

  private lease(): Lease {
    const now = Date.now();
    return { node: this.node, token: randomUUID(), now: new Date(now).toISOString(), until: new Date(now + this.leaseMs).toISOString() };
  }

  /** New events may be in the log: a pass now, or once EMPTY_PASS_GAP_MS has passed since a pass that found nothing. */
  private signalled(): void {
    this.deriveWanted = true;
    if (this.deferred) return;
    const wait = this.emptyPassEndedAt + EMPTY_PASS_GAP_MS - performance.now();
    if (this.emptyPassEndedAt === 0 || wait <= 0) return this.pump();
    this.deferred = setTimeout(() => {
      this.deferred = undefined;
      this.pump();
    }, wait);
  }

  /** Claims work until the slots are full or nothing is left; a call while one runs makes it go round once more. */
  private pump(): void {
    if (this.stopped) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = true;
    void this.claimAll()
      .then((found) => (this.emptyPassEndedAt = found ? 0 : performance.now()))
      .catch((err) => {
        this.deriveWanted = true;
        this.o.log()?.error({ err: (err as Error).message }, 'webhook dispatcher could not claim deliveries; retrying at the next poll');
      })
      .finally(() => {
        this.pumping = false;
        if (this.again) {
          this.again = false;
          if (this.deriveWanted) this.signalled();
          else this.pump();
        }
      });
  }

  /** One pass; true when it found anything to derive or claim. */
  private async claimAll(): Promise<boolean> {
    this.again = false;
    this.saturated = false;
    let found = false;
    while (!this.stopped) {
      // After a round that claimed, another only once it would be a large one: the sends still queued
      // keep the slots busy, and a freed slot starts the next pass when enough are free.
      const free = this.free();
      if (free <= 0 || (found && free < Math.ceil(this.held() / REFILL_PART))) {
        this.saturated = true;
        return true;
      }
      const derive = this.deriveWanted;
      this.deriveWanted = false;
      // The derive and the claim of due deliveries run at once, on two connections: one after the
      // other, each pass cost the sum of both's round trips, and while a backlog is worked off (a
      // replay moved the cursor back over events whose deliveries exist) the derive finds nothing
      // and only held the claims up. Each may fill every free slot, so a pass claims at most twice
      // the free slots (the derive at most DERIVE_BATCH of them); the queue holds them meanwhile.
      const want = this.free();
      const [deriving, claiming] = await Promise.allSettled([
        derive ? this.o.outbox.deriveDeliveries(Math.min(want, DERIVE_BATCH), this.lease(), this.o.audience) : { claimed: [], derived: 0, more: false },
        this.o.outbox.claimDue(want, this.lease()),
      ]);
      // What one of them claimed is sent even when the other failed: it is leased to this node now.
      if (claiming.status === 'fulfilled') this.enqueue(claiming.value);
      if (deriving.status === 'fulfilled') this.enqueue(deriving.value.claimed);
      if (deriving.status === 'rejected') throw deriving.reason;
      if (claiming.status === 'rejected') throw claiming.reason;
      const [derived, due] = [deriving.value, claiming.value];
      if (derived.more) this.deriveWanted = true;
      found ||= derived.derived > 0 || derived.claimed.length > 0 || due.length > 0;
      if (!derived.more && due.length < want) break;
    }
    return found;
  }

  private enqueue(claims: ClaimedDelivery[]): void {
    this.queue.push(...claims);
    while (this.queue.length && this.inflight.size < this.o.settings.concurrency) {
      const claim = this.queue.shift()!;
      const run = this.send(claim).catch((err) => this.o.log()?.error({ err: (err as Error).message, delivery: claim.delivery.id }, 'webhook delivery could not be released; it is retried when its lease runs out'));
      this.inflight.add(run);
      void run.finally(() => {
        this.inflight.delete(run);
        // A freed slot: take the next one queued, and claim more if the last pass left work behind once
        // enough slots are free (otherwise the next commit signal or poll does: a claim pass per finished send would cost a write each).
        if (this.queue.length) this.enqueue([]);
        if (this.saturated && this.free() >= Math.ceil(this.held() / REFILL_PART)) this.pump();
      });
    }
  }

  /** Sends one claimed delivery, unless its lease is too short now or its endpoint's rate limit defers it. */
  private async send(claim: ClaimedDelivery): Promise<void> {
    const now = Date.now();
    const leaseLeft = Date.parse(claim.delivery.lastAttemptAt ?? '') + this.leaseMs - now;
    // A claim that waited in the queue too long could outlive its lease mid-attempt, and another node could then send it too.
    if (this.stopped || !(leaseLeft > this.o.settings.connectTimeoutMs + this.o.settings.timeoutMs)) {
      await this.o.outbox.release(claim.delivery.id, claim.leaseToken, new Date(now).toISOString());
      return;
    }
    const later = await this.rates.take(claim.endpoint.id, claim.endpoint.rateLimit, now);
    if (later !== undefined) {
      await this.o.outbox.release(claim.delivery.id, claim.leaseToken, new Date(later).toISOString());
      return;
    }
    const { recorded } = await this.attempt(claim, 'automatic');
    this.recording.add(recorded);
    void recorded.finally(() => {
      this.recording.delete(recorded);
      if (this.saturated && !this.queue.length) this.pump();
    });
  }

  /**
   * Makes the attempt; resolves once the receiver answered, with the attempt as logged and the
   * promise of its outcome being written (the delivery stays leased until then).
   */
  private async attempt(claim: ClaimedDelivery, trigger: AttemptTrigger): Promise<{ attempt: OutboundAttempt; recorded: Promise<void> }> {
    const startedAt = new Date();
    // Rights may have narrowed since the delivery was derived (the owner changed the endpoint, the config changed): it is not sent, and not retried.
    const hidden = this.o.audience && hiddenFromOwner(this.o.audience, claim.endpoint, claim.event);
    const result = hidden ? { ok: false, statusCode: null, latencyMs: 0, responseExcerpt: null, blocked: false, error: hidden } : await this.deliver(claim, startedAt.getTime());
    // A moving average over the last hundred sends or so.
    if (trigger === 'automatic') this.sendMs += (result.latencyMs - this.sendMs) / 64;
    this.o.observe?.(result, claim.endpoint.id);
    const attempt: OutboundAttempt = {
      deliveryId: claim.delivery.id,
      number: claim.attempt,
      trigger,
      startedAt: startedAt.toISOString(),
      statusCode: result.statusCode,
      latencyMs: result.latencyMs,
      responseExcerpt: result.responseExcerpt,
      error: result.error,
      node: this.node,
    };
    const outcome = hidden ? { status: 'failed' as const, nextAttemptAt: null } : trigger === 'manual' ? manualOutcome(claim, result) : automaticOutcome(claim, result, this.o.settings, new Date());
    const { deliveryId: _, ...logged } = attempt;
    const record = { attempt: logged, ...outcome };
    const written =
      trigger === 'manual' ? this.o.outbox.recordAttempt(claim.delivery.id, claim.leaseToken, record) : this.recorder.record({ deliveryId: claim.delivery.id, leaseToken: claim.leaseToken, record });
    const recorded = written.then(
      (held) => {
        if (held && trigger === 'automatic' && outcome.status === 'failed') this.gaveUpOn(claim, attempt);
        if (outcome.endpoint?.disable) this.o.log()?.warn({ endpoint: claim.endpoint.id, url: claim.endpoint.url }, `webhook endpoint disabled: ${outcome.endpoint.disable}`);
      },
      (err: unknown) => {
        this.o.log()?.error({ err: (err as Error).message, delivery: claim.delivery.id }, 'webhook delivery attempt could not be recorded; it is retried when its lease runs out');
        if (trigger === 'manual') throw err;
      },
    );
    return { attempt, recorded };
  }

  /** A delivery given up on: a warning an operator can alert on (no payload, no URL: it may hold credentials), and the metric. */
  private gaveUpOn(claim: ClaimedDelivery, attempt: OutboundAttempt): void {
    const { delivery, endpoint } = claim;
    const line = { endpoint: endpoint.id, delivery: delivery.id, eventType: delivery.eventType, attempts: attempt.number, lastStatus: attempt.statusCode, lastError: attempt.error?.slice(0, 300) ?? null };
    this.o.log()?.warn(line, `webhook delivery given up after ${attempt.number} attempt(s); it stays failed until replayed (POST …/replays) or retried by hand`);
    this.o.gaveUp?.(claim);
  }

  private async deliver(claim: ClaimedDelivery | { endpoint: WebhookEndpoint; id: string; body: string; what: string }, now: number): Promise<SendResult> {
    const { endpoint } = claim;
    let secrets: string[];
    let headers: Record<string, string>;
    try {
      secrets = activeSecrets(this.o.secrets, endpoint.sealedSecrets, now);
      headers = openHeaders(this.o.secrets, endpoint.headers);
    } catch {
      return { ok: false, statusCode: null, latencyMs: 0, responseExcerpt: null, blocked: false, error: 'the endpoint\'s sealed secrets or credential headers cannot be opened with this server\'s secret key (webhooks.outbound.secretKey changed?); rotate the secret (POST …/secrets) and set its credential headers again' };
    }
    const message = 'event' in claim ? { id: claim.event.id, body: this.o.body(claim.event), delivery: claim.delivery.id } : { id: claim.id, body: claim.body, delivery: claim.what };
    const result = await this.o.sender.send({ url: endpoint.url, headers, secrets, id: message.id, body: message.body });
    if (result.blocked) this.o.log()?.warn({ endpoint: endpoint.id, url: endpoint.url, delivery: message.delivery, reason: result.error }, 'webhook delivery refused by the SSRF guard');
    return result;
  }
}
