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
  /** The row object of each statement read in raw mode (see rowMaker). */
  private readonly rowMakers = new WeakMap<Statement, (values: unknown[]) => Row>();

  constructor(protected readonly db: Database) {}

  rows(query: CompiledQuery): Row[] {
    const s = this.statement(query.sql);
    const rowOf = this.rowMakers.get(s);
    if (!rowOf) return s.all(...(query.parameters as unknown[])) as Row[];
    const rows = s.all(...(query.parameters as unknown[])) as unknown[][] as Row[];
    for (let i = 0; i < rows.length; i++) rows[i] = rowOf(rows[i] as unknown[]);
    return rows;
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
      const rowOf = s.reader ? rowMaker(s.columns().map((c) => c.name)) : undefined;
      if (rowOf) this.rowMakers.set(s.raw(true), rowOf);
    }
    return s;
  }
}

/**
 * A function that turns a statement's raw row (values in column order) into the row object
 * better-sqlite3 would have built. better-sqlite3 builds each row object through V8's C++ API, one
 * property at a time, which cost a third of a 20-row page's read; an object literal of the
 * statement's columns, compiled once per statement, builds the same object in a few nanoseconds,
 * with one shape for every row. A later duplicate name wins, as in better-sqlite3. Undefined for a
 * name an object literal would treat specially (`__proto__`): such a statement keeps object rows.
 * Column names reach the code only quoted by JSON.stringify.
 */
function rowMaker(columns: string[]): ((values: unknown[]) => Row) | undefined {
  if (columns.includes('__proto__')) return undefined;
  return new Function('v', `return { ${columns.map((c, i) => `${JSON.stringify(c)}: v[${i}]`).join(', ')} };`) as (values: unknown[]) => Row;
}
