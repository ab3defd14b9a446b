import type { CompiledQuery } from 'kysely';
import type pg from 'pg';
import type { SchemaStatements } from '../schema-sync.js';
import type { Row } from '../statements.js';
import { pgCodec, unstorableText } from './postgres-codec.js';
import { pgBuilder } from './postgres-kysely.js';

/** Runs statements on the pool (each commits on its own) or on one checked-out connection. */
export class PostgresStatements implements SchemaStatements {
  readonly sql = pgBuilder;
  readonly codec = pgCodec;

  constructor(protected readonly db: pg.Pool | pg.PoolClient) {}

  async rows(query: CompiledQuery): Promise<Row[]> {
    return (await this.db.query(query.sql, query.parameters as unknown[])).rows;
  }

  async run(query: CompiledQuery): Promise<number> {
    return (await this.db.query(query.sql, query.parameters as unknown[])).rowCount ?? 0;
  }

  async exec(ddl: string): Promise<void> {
    await this.db.query(ddl);
  }

  storable(...texts: string[]): boolean {
    return !unstorableText(...texts);
  }
}
