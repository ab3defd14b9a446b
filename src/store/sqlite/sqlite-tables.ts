import type { Database } from 'better-sqlite3';

/**
 * Restwell's own tables: schema shapes, event log, Idempotency-Keys, documents, the webhook inbox
 * and the outbox of outbound webhooks (endpoints, deliveries, attempts; deleting an endpoint
 * deletes its deliveries and their attempts through the foreign keys), and how far retention has
 * pruned each log (`_rw_retention`: the last position removed, so a reader behind it is told).
 */
const SYSTEM_DDL = `
CREATE TABLE IF NOT EXISTS _rw_schema (resource TEXT PRIMARY KEY, shape TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS _rw_events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, type TEXT NOT NULL, resource TEXT NOT NULL,
  record_id TEXT, data TEXT NOT NULL, created_at TEXT NOT NULL, owner TEXT);
CREATE INDEX IF NOT EXISTS _rw_events_type ON _rw_events (type, seq);
CREATE TABLE IF NOT EXISTS _rw_idempotency (
  scope TEXT NOT NULL, key TEXT NOT NULL, fingerprint TEXT NOT NULL, state TEXT NOT NULL,
  response TEXT, expires_at TEXT NOT NULL, claim_id TEXT, applied TEXT, PRIMARY KEY (scope, key));
CREATE INDEX IF NOT EXISTS _rw_idempotency_expiry ON _rw_idempotency (expires_at);
CREATE TABLE IF NOT EXISTS _rw_documents (
  kind TEXT NOT NULL, id TEXT NOT NULL, data TEXT NOT NULL, expires_at TEXT, PRIMARY KEY (kind, id));
CREATE TABLE IF NOT EXISTS _rw_inbox (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, source TEXT NOT NULL, event_id TEXT NOT NULL,
  received_at TEXT NOT NULL, headers TEXT NOT NULL, content_type TEXT NOT NULL, body BLOB NOT NULL,
  verification TEXT NOT NULL, status TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, next_attempt_at TEXT,
  last_error TEXT, response TEXT NOT NULL, attempt_log TEXT NOT NULL DEFAULT '[]', UNIQUE (source, event_id));
CREATE INDEX IF NOT EXISTS _rw_inbox_due ON _rw_inbox (status, next_attempt_at);
CREATE INDEX IF NOT EXISTS _rw_inbox_source ON _rw_inbox (source, status, seq);
CREATE TABLE IF NOT EXISTS _rw_hook_endpoints (
  id TEXT PRIMARY KEY, url TEXT NOT NULL, description TEXT, event_types TEXT, enabled INTEGER NOT NULL, disabled_reason TEXT,
  headers TEXT NOT NULL, rate_limit TEXT, secrets TEXT NOT NULL, cursor INTEGER NOT NULL, failing_since TEXT,
  version INTEGER NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL, owner TEXT);
CREATE TABLE IF NOT EXISTS _rw_hook_deliveries (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE,
  endpoint_id TEXT NOT NULL REFERENCES _rw_hook_endpoints (id) ON DELETE CASCADE,
  event_seq INTEGER NOT NULL, event_id TEXT NOT NULL, event_type TEXT NOT NULL, status TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0, retry_from INTEGER NOT NULL DEFAULT 0, next_attempt_at TEXT, last_attempt_at TEXT,
  last_status_code INTEGER, last_error TEXT, lease_until TEXT, leased_by TEXT, lease_token TEXT,
  created_at TEXT NOT NULL, delivered_at TEXT, UNIQUE (endpoint_id, event_seq));
CREATE INDEX IF NOT EXISTS _rw_hook_deliveries_due ON _rw_hook_deliveries (status, next_attempt_at);
CREATE INDEX IF NOT EXISTS _rw_hook_deliveries_endpoint ON _rw_hook_deliveries (endpoint_id, seq);
CREATE TABLE IF NOT EXISTS _rw_hook_attempts (
  delivery_id TEXT NOT NULL REFERENCES _rw_hook_deliveries (id) ON DELETE CASCADE, number INTEGER NOT NULL,
  "trigger" TEXT NOT NULL, started_at TEXT NOT NULL, status_code INTEGER, latency_ms INTEGER NOT NULL,
  response_excerpt TEXT, error TEXT, node TEXT NOT NULL, PRIMARY KEY (delivery_id, number));
CREATE INDEX IF NOT EXISTS _rw_documents_expiry ON _rw_documents (expires_at) WHERE expires_at IS NOT NULL;
CREATE TABLE IF NOT EXISTS _rw_retention (log TEXT PRIMARY KEY, through INTEGER NOT NULL, through_at TEXT NOT NULL);
`;

/**
 * Columns Restwell's own tables gained after their first release. Events gained `owner` (older
 * events keep NULL, so under an owner rule only admins see them); Idempotency-Keys gained the
 * claim's id and what the write they guard applied; webhook endpoints gained the rights of the
 * subscriber that owns them (`owner_access`, NULL for an operator's endpoint: it receives every event).
 */
const ADDED_COLUMNS: Array<[table: string, column: string, type: string]> = [
  ['_rw_events', 'owner', 'TEXT'],
  ['_rw_idempotency', 'claim_id', 'TEXT'],
  ['_rw_idempotency', 'applied', 'TEXT'],
  ['_rw_hook_endpoints', 'owner_access', 'TEXT'],
  ['_rw_hook_endpoints', 'event_filter', 'TEXT'],
];

/** Creates Restwell's own tables, or brings those of a database made by an earlier version up to date. */
export function createSqliteTables(db: Database): void {
  db.exec(SYSTEM_DDL);
  db.transaction(() => {
    for (const [table, column, type] of ADDED_COLUMNS) {
      if (!db.prepare(`SELECT 1 FROM pragma_table_info('${table}') WHERE name = ?`).get(column)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${type}`);
    }
  }).immediate();
}
