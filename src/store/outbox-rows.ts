import { newUuidHex } from '../core/ids.js';
import type { FieldDefinition } from '../core/resource.js';
import { storableError } from './inbox.js';
import type { EndpointInput, OutboundAttempt, OutboundDelivery, WebhookEndpoint } from './outbox.js';
import { filterColumn, filterOf } from './outbox-filter.js';
import type { Codec } from './records.js';
import { ownerAccessColumn, toOwnerAccess } from './outbox-owner.js';
import type { Row } from './statements.js';

/*
 * How the outbox's rows map to its types, on every engine: JSON as text, times as ISO text, the
 * enabled flag through the engine's codec (a boolean on PostgreSQL, 0/1 on SQLite).
 */

/** The enabled flag, as a boolean field for the engine's codec. */
const FLAG: FieldDefinition = { name: 'enabled', type: 'boolean' };

/** A new public endpoint id (time-ordered, so id order is creation order). */
export function newEndpointId(): string {
  return `ep_${newUuidHex()}`;
}

/** A new public outbound delivery id. */
export function newOutboundId(): string {
  return `msg_${newUuidHex()}`;
}

/** The enabled flag as the engine stores it. */
export function flag(codec: Codec, on: boolean): unknown {
  return codec.encode(FLAG, on);
}

/** The columns a user's input sets on an endpoint. */
export function inputColumns(codec: Codec, input: EndpointInput): Row {
  return {
    url: input.url,
    description: input.description,
    event_types: input.eventTypes ? JSON.stringify(input.eventTypes) : null,
    enabled: flag(codec, input.enabled),
    headers: JSON.stringify(input.headers),
    rate_limit: input.rateLimit ? JSON.stringify(input.rateLimit) : null,
    secrets: input.sealedSecrets,
    ...(input.ownerAccess !== undefined ? { owner_access: ownerAccessColumn(input.ownerAccess) } : {}),
    event_filter: filterColumn(input.filter),
  };
}

/** The part of an endpoint a user sets, to tell whether a change changes anything. */
export function inputOf(e: WebhookEndpoint): EndpointInput {
  return { url: e.url, description: e.description, eventTypes: e.eventTypes, enabled: e.enabled, headers: e.headers, rateLimit: e.rateLimit, sealedSecrets: e.sealedSecrets, ownerAccess: e.ownerAccess, filter: e.filter };
}

export function toEndpoint(codec: Codec, row: Row): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    description: row.description ?? null,
    eventTypes: row.event_types === null ? null : JSON.parse(row.event_types),
    enabled: codec.decode(FLAG, row.enabled) as boolean,
    disabledReason: row.disabled_reason ?? null,
    headers: JSON.parse(row.headers),
    rateLimit: row.rate_limit === null ? null : JSON.parse(row.rate_limit),
    sealedSecrets: row.secrets,
    cursor: Number(row.cursor),
    failingSince: row.failing_since ?? null,
    version: Number(row.version),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    owner: row.owner ?? null,
    ownerAccess: toOwnerAccess(row.owner_access),
    filter: filterOf(row.event_filter),
  };
}

export function toOutboundDelivery(row: Row): OutboundDelivery {
  return {
    seq: Number(row.seq),
    id: row.id,
    endpointId: row.endpoint_id,
    eventSeq: Number(row.event_seq),
    eventId: row.event_id,
    eventType: row.event_type,
    status: row.status,
    attempts: Number(row.attempts),
    retryFrom: Number(row.retry_from),
    nextAttemptAt: row.next_attempt_at ?? null,
    lastAttemptAt: row.last_attempt_at ?? null,
    lastStatusCode: row.last_status_code === null ? null : Number(row.last_status_code),
    lastError: row.last_error ?? null,
    createdAt: row.created_at,
    deliveredAt: row.delivered_at ?? null,
  };
}

export function toAttempt(row: Row): OutboundAttempt {
  return {
    deliveryId: row.delivery_id,
    number: Number(row.number),
    trigger: row.trigger,
    startedAt: row.started_at,
    statusCode: row.status_code === null ? null : Number(row.status_code),
    latencyMs: Number(row.latency_ms),
    responseExcerpt: row.response_excerpt ?? null,
    error: row.error ?? null,
    node: row.node,
  };
}

/**
 * An attempt's row. What a remote server answered is kept as every engine can store it: NUL,
 * which PostgreSQL text cannot hold, is written as `\u0000`.
 */
export function attemptColumns(deliveryId: string, a: Omit<OutboundAttempt, 'deliveryId'>): Row {
  return {
    delivery_id: deliveryId,
    number: a.number,
    trigger: a.trigger,
    started_at: a.startedAt,
    status_code: a.statusCode,
    latency_ms: Math.round(a.latencyMs),
    response_excerpt: storableError(a.responseExcerpt),
    error: storableError(a.error),
    node: storableError(a.node),
  };
}
