import type { IdType } from '../config/types.js';
import { sql, type Kysely, type ColumnDefinitionBuilder } from 'kysely';
import type { FieldDefinition } from '../core/resource.js';
import { indexName, type SchemaStep } from './schema-plan.js';

/** How an engine spells its column types; the rest of the DDL is shared. */
export interface ColumnTypes {
  /** The id column of an integer-id resource: auto-incremented, never reused. */
  integerId: (col: ColumnDefinitionBuilder) => ColumnDefinitionBuilder;
  integerIdType: string;
  /** The id column of a uuid or string resource: text, compared byte-wise (case-sensitive). */
  textIdType: string;
  text: string;
  bigint: string;
  /** The column type of a field (a reference takes the id type of its target). */
  field: (field: FieldDefinition, refIdType: IdType) => string;
  /**
   * Capability: the statements that index a text column for `rw_fold(column) LIKE '%…%'` (`q=`,
   * icontains, istartsWith), and those that drop it. Absent where the engine has no such index:
   * those searches then scan.
   */
  searchIndex?: { create: (table: string, field: string) => string[]; drop: (table: string, field: string) => string[] };
}

/** Translates one schema step into SQL statements for the engine whose query compiler `db` uses. */
export function ddlFor(step: SchemaStep, db: Kysely<any>, types: ColumnTypes, idTypeOf: (resource: string) => IdType): string[] {
  const s = db.schema;
  switch (step.kind) {
    case 'create-table': {
      const r = step.resource;
      let t =
        r.idType !== 'integer'
          ? s.createTable(r.name).addColumn('id', sql.raw(types.textIdType), (c) => c.primaryKey())
          : s.createTable(r.name).addColumn('id', sql.raw(types.integerIdType), (c) => types.integerId(c.primaryKey()));
      t = t
        .addColumn('_version', sql.raw(types.bigint), (c) => c.notNull())
        .addColumn('_gen', sql.raw(types.text), (c) => c.notNull())
        .addColumn('_created_at', sql.raw(types.text), (c) => c.notNull())
        .addColumn('_updated_at', sql.raw(types.text), (c) => c.notNull())
        .addColumn('_owner', sql.raw(types.text));
      for (const f of r.fields) t = t.addColumn(f.name, sql.raw(types.field(f, refType(f, idTypeOf))), (c) => references(c, f));
      const out = [t.compile().sql];
      for (const f of r.fields) {
        if (f.unique) out.push(...ddlFor({ kind: 'create-index', resource: r.name, field: f.name, unique: true }, db, types, idTypeOf));
        if (f.index) out.push(...ddlFor({ kind: 'create-index', resource: r.name, field: f.name, unique: false }, db, types, idTypeOf));
        if (r.search.includes(f.name)) out.push(...(types.searchIndex?.create(r.name, f.name) ?? []));
      }
      return out;
    }
    case 'drop-table':
      return [s.dropTable(step.resource).compile().sql];
    case 'add-column': {
      const f = step.field;
      return [s.alterTable(step.resource).addColumn(f.name, sql.raw(types.field(f, refType(f, idTypeOf))), (c) => references(c, f)).compile().sql];
    }
    case 'drop-column':
      return [s.alterTable(step.resource).dropColumn(step.field).compile().sql];
    case 'rename-column':
      // Both engines carry the column's values, constraints and index definitions over to the new name.
      return [s.alterTable(step.resource).renameColumn(step.from, step.to).compile().sql];
    case 'create-index': {
      const idx = s.createIndex(indexName(step.resource, step.field, step.unique)).on(step.resource).column(step.field);
      return [(step.unique ? idx.unique() : idx).compile().sql];
    }
    case 'drop-index':
      return [s.dropIndex(indexName(step.resource, step.field, step.unique)).ifExists().compile().sql];
    case 'create-search-index':
      return types.searchIndex?.create(step.resource, step.field) ?? [];
    case 'drop-search-index':
      return types.searchIndex?.drop(step.resource, step.field) ?? [];
  }
}

function refType(f: FieldDefinition, idTypeOf: (resource: string) => IdType): IdType {
  return f.type === 'reference' && f.to ? idTypeOf(f.to) : 'integer';
}

function references(c: ColumnDefinitionBuilder, f: FieldDefinition): ColumnDefinitionBuilder {
  return f.type === 'reference' && f.to ? c.references(`${f.to}.id`) : c;
}
