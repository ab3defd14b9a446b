import type { OutboundConfig } from '../../config/types.js';
import type { AttemptRecord, ClaimedDelivery } from '../../store/outbox.js';
import type { SendResult } from './types.js';

/** ±20%: spreads retries of many deliveries that failed together, so a receiver coming back is not hit by all at once. */
const JITTER = 0.2;

/** The settings an attempt's outcome depends on. */
export type RetrySettings = Pick<OutboundConfig, 'retryScheduleMs' | 'disableAfterMs'>;

/**
 * When to try again after the `run`-th failed attempt of a retry run (1 = the first attempt
 * failed), with jitter; null once the schedule is used up (the delivery is given up on).
 */
export function retryAt(run: number, scheduleMs: readonly number[], now: number, random: () => number = Math.random): Date | null {
  const wait = scheduleMs[run - 1];
  if (wait === undefined) return null;
  return new Date(now + Math.round(wait * (1 - JITTER + random() * 2 * JITTER)));
}

/**
 * What an automatic attempt's result does to its delivery and endpoint: a 2xx delivers it (and
 * clears the endpoint's failing state); a failure schedules the next retry or gives up; a 410 Gone
 * gives up and disables the endpoint (the receiver says it is gone for good); an endpoint that has
 * failed without a success for `disableAfterMs` is disabled.
 */
export function automaticOutcome(claim: ClaimedDelivery, result: SendResult, settings: RetrySettings, now: Date): Pick<AttemptRecord, 'status' | 'nextAttemptAt' | 'endpoint'> {
  const { delivery, endpoint } = claim;
  if (result.ok) return { status: 'delivered', nextAttemptAt: null, endpoint: endpoint.failingSince === null ? undefined : { failingSince: null } };
  if (result.statusCode === 410) {
    return { status: 'failed', nextAttemptAt: null, endpoint: { failingSince: now.toISOString(), disable: `the receiver answered 410 Gone at ${now.toISOString()}, so deliveries stopped; enable the endpoint again (PATCH enabled: true) once it receives again` } };
  }
  // Attempts since automatic retries last (re)started: a replay starts the schedule again.
  const next = retryAt(claim.attempt - delivery.retryFrom, settings.retryScheduleMs, now.getTime());
  const health: NonNullable<AttemptRecord['endpoint']> = { failingSince: now.toISOString() };
  if (endpoint.failingSince && now.getTime() - Date.parse(endpoint.failingSince) >= settings.disableAfterMs) {
    health.disable = `every delivery has failed since ${endpoint.failingSince} without a success (webhooks.outbound.disableAfter); fix the receiver, then enable the endpoint again (PATCH enabled: true) and replay what it missed`;
  }
  return { status: next ? 'pending' : 'failed', nextAttemptAt: next?.toISOString() ?? null, endpoint: health };
}

/**
 * What a user's redelivery does: a 2xx delivers it (and clears the endpoint's failing state); a
 * failure leaves the delivery as it was (still pending on its schedule, or given up) and the
 * endpoint's health alone, since a user trying a receiver is no sign that it stopped working.
 */
export function manualOutcome(claim: ClaimedDelivery, result: SendResult): Pick<AttemptRecord, 'status' | 'nextAttemptAt' | 'endpoint'> {
  const { delivery, endpoint } = claim;
  if (result.ok) return { status: 'delivered', nextAttemptAt: null, endpoint: endpoint.failingSince === null ? undefined : { failingSince: null } };
  return { status: delivery.status, nextAttemptAt: delivery.status === 'pending' ? (delivery.nextAttemptAt ?? new Date().toISOString()) : null };
}
