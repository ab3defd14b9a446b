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
