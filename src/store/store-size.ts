/**
 * How big the database is, as an engine can tell without reading the data itself: what the
 * metrics report at scrape time (cached above the store, so a burst of scrapes costs one query).
 */
export interface StoreSize {
  /**
   * Bytes Restwell's data takes: on SQLite the database file (page count × page size) plus its
   * write-ahead log; on PostgreSQL the tables of its schema with their indexes and TOAST (and the
   * event log's partitions, wherever they live).
   */
  databaseBytes: number;
  /**
   * Events in the log, estimated from the span of positions kept (newest − oldest + 1): exact on
   * SQLite, an upper bound on PostgreSQL, where a rolled-back write leaves a gap. Two index lookups.
   */
  eventRows: number;
  /** Bytes of the event log (its table, indexes and partitions), where the engine can tell cheaply. */
  eventBytes?: number;
}

