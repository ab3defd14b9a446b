import type { Database, Statement } from 'better-sqlite3';
import type { CompiledQuery } from 'kysely';
import type { SchemaStatements } from '../schema-sync.js';
import type { Row } from '../statements.js';
import { sqliteCodec } from './sqlite-codec.js';
import { sqliteBuilder } from './sqlite-kysely.js';

/** Runs statements on the one better-sqlite3 connection, synchronously, from cached prepared statements. */
export class SqliteStatements implements SchemaStatements {
  readonly sql = sqliteBuilder;
  readonly codec = sqliteCodec;
  private readonly prepared = new Map<string, Statement>();

  constructor(protected readonly db: Database) {}

  rows(query: CompiledQuery): Row[] {
    return this.statement(query.sql).all(...(query.parameters as unknown[])) as Row[];
  }

  run(query: CompiledQuery): number {
    return this.statement(query.sql).run(...(query.parameters as unknown[])).changes;
  }

  exec(ddl: string): void {
    this.db.exec(ddl);
  }

  /** SQLite text holds any string, NUL included. */
  storable(): boolean {
    return true;
  }

  private statement(sql: string): Statement {
    let s = this.prepared.get(sql);
    if (!s) {
      // List queries vary with their filters; keep the cache bounded.
      if (this.prepared.size > 1000) this.prepared.clear();
      s = this.db.prepare(sql);
      this.prepared.set(sql, s);
    }
    return s;
  }
}
