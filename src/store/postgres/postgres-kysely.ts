import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import type { ColumnTypes } from '../ddl.js';
import { PG_TEXT, pgColumnType } from './postgres-codec.js';

/** A Kysely instance that only builds PostgreSQL SQL; pg runs it on the pool. */
export const pgBuilder = new Kysely<any>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

/** PostgreSQL's spelling of Restwell's column types. */
export const pgTypes: ColumnTypes = {
  // "by default" so a PUT may create a record at a client-chosen id (the store then bumps the sequence).
  integerId: (c) => c.generatedByDefaultAsIdentity(),
  integerIdType: 'bigint',
  uuidIdType: PG_TEXT,
  text: PG_TEXT,
  bigint: 'bigint',
  field: (f, refIdType) => pgColumnType(f, refIdType),
};

/**
 * Restwell's own tables. `_rw_events.seq` comes from its own sequence so readers can take a
 * high-water mark from it (see postgres-events.ts); JSON documents are kept as text, as on SQLite.
 */
export const PG_SYSTEM_DDL = `
CREATE TABLE IF NOT EXISTS _rw_schema (resource text PRIMARY KEY, shape text NOT NULL);
CREATE SEQUENCE IF NOT EXISTS _rw_event_seq;
CREATE TABLE IF NOT EXISTS _rw_events (
  seq bigint PRIMARY KEY DEFAULT nextval('_rw_event_seq'), id text NOT NULL UNIQUE, type ${PG_TEXT} NOT NULL,
  resource text NOT NULL, record_id text, data text NOT NULL, created_at text NOT NULL, owner text);
ALTER TABLE _rw_events ADD COLUMN IF NOT EXISTS owner text;
ALTER SEQUENCE _rw_event_seq OWNED BY _rw_events.seq;
CREATE INDEX IF NOT EXISTS _rw_events_type ON _rw_events (type, seq);
CREATE TABLE IF NOT EXISTS _rw_idempotency (
  scope text NOT NULL, key text NOT NULL, fingerprint text NOT NULL, state text NOT NULL,
  response text, expires_at ${PG_TEXT} NOT NULL, PRIMARY KEY (scope, key));
ALTER TABLE _rw_idempotency ADD COLUMN IF NOT EXISTS claim_id text, ADD COLUMN IF NOT EXISTS applied text;
CREATE TABLE IF NOT EXISTS _rw_documents (
  kind text NOT NULL, id ${PG_TEXT} NOT NULL, data text NOT NULL, expires_at ${PG_TEXT}, PRIMARY KEY (kind, id));
`;
