import pg from 'pg';

/** The longest wait between two tries to get the listening connection back. */
const MAX_BACKOFF_MS = 30_000;

/** The channel a schema's event appends are announced on (NOTIFY after commit, see postgres-announcer.ts). */
export function eventsChannel(schemaKey: number): string {
  return `rw_events_${schemaKey >>> 0}`;
}

/**
 * One dedicated connection (outside the pool, which would take it back) that LISTENs for other
 * nodes' event appends and calls `onNotice` for each. A dropped connection is opened again with
 * growing waits; `onNotice` is called each time it listens anew, since appends made while it was
 * away were not heard. Closing it ends the connection, so it keeps no process alive after.
 */
export class PostgresListener {
  private client?: pg.Client;
  private timer?: NodeJS.Timeout;
  private failures = 0;
  private closed = false;

  constructor(private readonly connectionString: string, private readonly channel: string, private readonly onNotice: () => void) {}

  start(): void {
    void this.connect();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.connectionString });
    this.client = client;
    client.on('notification', () => this.onNotice());
    client.on('error', () => this.dropped(client));
    client.on('end', () => this.dropped(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
    } catch {
      this.dropped(client);
      return;
    }
    this.failures = 0;
    this.onNotice();
  }

  /** The connection failed or ended: unless closing, try again later. Each client is handled once. */
  private dropped(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = undefined;
    client.end().catch(() => undefined);
    if (this.closed) return;
    this.timer = setTimeout(() => void this.connect(), Math.min(MAX_BACKOFF_MS, 250 * 2 ** this.failures++));
    // A retry alone must not keep a process alive that has nothing else to do.
    this.timer.unref();
  }
}
