/** The database schema cannot be brought in line with the config without losing data (or at all). */
export class SchemaSyncError extends Error {
  constructor(readonly problems: string[], destructive = true) {
    super(
      `The database schema does not match the config:\n  - ${problems.join('\n  - ')}` +
        (destructive ? '\nSet allowDestructiveMigrations: true in the config to apply changes that delete data.' : ''),
    );
    this.name = 'SchemaSyncError';
  }
}

/** The database cannot be reached; requests get 503 until it is back. */
export class StoreUnavailableError extends Error {
  constructor(message: string, readonly retryAfterSeconds = 5) {
    super(message);
    this.name = 'StoreUnavailableError';
  }
}

/** A bulk import into resources that already hold records, without leave to replace them. */
export class ImportRefusedError extends Error {
  constructor(readonly resources: string[]) {
    super(`${resources.join(', ')} already ${resources.length === 1 ? 'holds' : 'hold'} records; nothing was imported`);
    this.name = 'ImportRefusedError';
  }
}

/**
 * The database server answered but refuses this connection for a reason that waiting will not fix:
 * the database does not exist, the password is wrong, the role is unknown. Start-up fails at once
 * with the message (one line, with the fix); at run time requests still get 503 like any outage.
 */
export class StoreRefusedError extends StoreUnavailableError {
  constructor(message: string) {
    super(message, 30);
    this.name = 'StoreRefusedError';
  }
}

/**
 * The database has no room left for a write (SQLite's SQLITE_FULL, PostgreSQL's 53100 disk_full).
 * Nothing was stored. Not a StoreUnavailableError: the database still answers and reads still
 * work, and a connection that reported it is healthy. Writes succeed again by themselves once
 * space is freed; `retryAfterSeconds` is the advice given to clients meanwhile.
 */
export class StoreFullError extends Error {
  constructor(readonly reason: string, readonly retryAfterSeconds = 30) {
    super(`the database has no storage space left (${reason}); nothing was stored; free disk space, then retry`);
    this.name = 'StoreFullError';
  }
}
