import type { Filter } from '../core/field-condition.js';
import type { StoredRecord } from '../core/record.js';

export { OPERATORS, TEXT_ONLY, type Filter } from '../core/field-condition.js';
/** The list URL's parameters that are not filters: every other name is a field (`field` or `field[op]`). */
export const LIST_CONTROLS: ReadonlySet<string> = new Set(['limit', 'sort', 'fields', 'cursor', 'total', 'q', 'expand']);

/** One sort key; `id` is always appended last so the order is total. */
export interface SortKey {
  field: string;
  descending: boolean;
}

/** A validated list request, in store terms (no HTTP left in it). */
export interface ListQuery {
  filters: Filter[];
  sort: SortKey[];
  limit: number;
  /** Keyset position: the sort values of the last record seen, and whether to page backwards. */
  after?: { values: unknown[]; backwards: boolean };
  /** Only records owned by this subject (`owner` access rule); absent means every record. */
  owner?: string;
  /**
   * `q=`: only records where at least one of `fields` contains `value`, case-insensitively
   * (core/fold.ts): the same test as `icontains` on each field, ORed.
   */
  search?: { fields: string[]; value: string };
  /** Count every match too (costs a second query). */
  withTotal?: boolean;
  /** Skip this many matches first (offset paging, as json-server pages); never with `after`. */
  offset?: number;
  /**
   * Sort NULL as the largest value (last ascending, first descending), as JavaScript sorts of
   * json-server's do, instead of the smallest; never with `after`, whose keyset assumes the smallest.
   */
  nullsLargest?: boolean;
}

/** One page of records in sort order, and whether more exist past either end. */
export interface Page {
  records: StoredRecord[];
  hasMore: boolean;
  total?: number;
}

/** The records that reference some records through one field (see Store.listReferencing). */
export interface ReferencingQuery {
  field: string;
  values: unknown[];
  perValue: number;
  owner?: string;
}
