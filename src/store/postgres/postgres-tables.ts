import type pg from 'pg';
import { PG_TEXT } from './postgres-codec.js';
import { eachOnItsOwn, LOCK, withSessionLock } from './postgres-locks.js';
import { POSTGRES_FUNCTIONS } from './postgres-functions.js';
import { createEventTable } from './postgres-event-table.js';

/**
 * Restwell's own tables: schema shapes, event log, Idempotency-Keys, documents, the webhook
 * inbox and the outbox of outbound webhooks (deleting an endpoint deletes its deliveries and their
 * attempts through the foreign keys). The event log is partitioned (postgres-event-table.ts); `_rw_events.seq` comes from its own
 * sequence so readers can take a high-water mark from it (see postgres-events.ts); `_rw_retention` says how far each log is pruned; JSON documents are kept as text, as on SQLite; times are ISO text,
 * compared bytewise. Columns added after the first release are added to older databases here too.
 */
const SYSTEM_DDL = `
CREATE TABLE IF NOT EXISTS _rw_schema (resource text PRIMARY KEY, shape text NOT NULL);
CREATE TABLE IF NOT EXISTS _rw_idempotency (
  scope text NOT NULL, key text NOT NULL, fingerprint text NOT NULL, state text NOT NULL,
  response text, expires_at ${PG_TEXT} NOT NULL, PRIMARY KEY (scope, key));
ALTER TABLE _rw_idempotency ADD COLUMN IF NOT EXISTS claim_id text, ADD COLUMN IF NOT EXISTS applied text;
CREATE TABLE IF NOT EXISTS _rw_documents (
  kind text NOT NULL, id ${PG_TEXT} NOT NULL, data text NOT NULL, expires_at ${PG_TEXT}, PRIMARY KEY (kind, id));
CREATE TABLE IF NOT EXISTS _rw_inbox (
  seq bigserial PRIMARY KEY, id text NOT NULL UNIQUE, source text NOT NULL, event_id text NOT NULL,
  received_at ${PG_TEXT} NOT NULL, headers text NOT NULL, content_type text NOT NULL, body bytea NOT NULL,
  verification text NOT NULL, status text NOT NULL, attempts integer NOT NULL DEFAULT 0, next_attempt_at ${PG_TEXT},
  last_error text, response text NOT NULL, attempt_log text NOT NULL DEFAULT '[]', UNIQUE (source, event_id));
CREATE INDEX IF NOT EXISTS _rw_inbox_due ON _rw_inbox (status, next_attempt_at);
CREATE INDEX IF NOT EXISTS _rw_inbox_source ON _rw_inbox (source, status, seq);
CREATE TABLE IF NOT EXISTS _rw_hook_endpoints (
  id ${PG_TEXT} PRIMARY KEY, url text NOT NULL, description text, event_types text, enabled boolean NOT NULL, disabled_reason text,
  headers text NOT NULL, rate_limit text, secrets text NOT NULL, cursor bigint NOT NULL, failing_since ${PG_TEXT},
  version bigint NOT NULL, created_at ${PG_TEXT} NOT NULL, updated_at ${PG_TEXT} NOT NULL, owner text);
ALTER TABLE _rw_hook_endpoints ADD COLUMN IF NOT EXISTS owner_access text;
ALTER TABLE _rw_hook_endpoints ADD COLUMN IF NOT EXISTS event_filter text;
CREATE TABLE IF NOT EXISTS _rw_hook_deliveries (
  seq bigserial PRIMARY KEY, id text NOT NULL UNIQUE,
  endpoint_id ${PG_TEXT} NOT NULL REFERENCES _rw_hook_endpoints (id) ON DELETE CASCADE,
  event_seq bigint NOT NULL, event_id text NOT NULL, event_type ${PG_TEXT} NOT NULL, status text NOT NULL,
  attempts integer NOT NULL DEFAULT 0, retry_from integer NOT NULL DEFAULT 0, next_attempt_at ${PG_TEXT}, last_attempt_at ${PG_TEXT},
  last_status_code integer, last_error text, lease_until ${PG_TEXT}, leased_by text, lease_token text,
  created_at ${PG_TEXT} NOT NULL, delivered_at ${PG_TEXT}, UNIQUE (endpoint_id, event_seq));
CREATE INDEX IF NOT EXISTS _rw_hook_deliveries_due ON _rw_hook_deliveries (status, next_attempt_at);
CREATE INDEX IF NOT EXISTS _rw_hook_deliveries_endpoint ON _rw_hook_deliveries (endpoint_id, seq);
CREATE TABLE IF NOT EXISTS _rw_hook_attempts (
  delivery_id text NOT NULL REFERENCES _rw_hook_deliveries (id) ON DELETE CASCADE, number integer NOT NULL,
  "trigger" text NOT NULL, started_at ${PG_TEXT} NOT NULL, status_code integer, latency_ms integer NOT NULL,
  response_excerpt text, error text, node text NOT NULL, PRIMARY KEY (delivery_id, number));
CREATE UNLOGGED TABLE IF NOT EXISTS _rw_rate_counters (
  policy text NOT NULL, key text NOT NULL, count int8 NOT NULL, window_end timestamptz NOT NULL, PRIMARY KEY (policy, key));
CREATE INDEX IF NOT EXISTS _rw_idempotency_expiry ON _rw_idempotency (expires_at);
CREATE INDEX IF NOT EXISTS _rw_documents_expiry ON _rw_documents (expires_at) WHERE expires_at IS NOT NULL;
CREATE TABLE IF NOT EXISTS _rw_retention (log text PRIMARY KEY, through bigint NOT NULL, through_at text NOT NULL);
`;

/** SYSTEM_DDL's statements, run one per transaction (see eachOnItsOwn); none has a `$` body, so each `;` ends one. */
const SYSTEM_STATEMENTS = SYSTEM_DDL.split(/;\s*\n/).filter((statement) => statement.trim());

/**
 * Creates the schema a URL names (`?schema=`) and Restwell's own tables in it, or brings those of
 * an earlier version up to date, one node at a time.
 */
export async function createPostgresTables(pool: pg.Pool, schemaKey: number, schema: string | undefined): Promise<void> {
  await withSessionLock(pool, LOCK.schema, schemaKey, async (client) => {
    if (schema) await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    await createEventTable(client);
    await eachOnItsOwn(client, SYSTEM_STATEMENTS);
    await client.query(POSTGRES_FUNCTIONS);
  });
}
