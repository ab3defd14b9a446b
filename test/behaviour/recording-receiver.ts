import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

/** One request a RecordingReceiver got: its path, headers and JSON body. */
export interface Recorded {
  path: string;
  headers: IncomingHttpHeaders;
  body: any;
  /** The body as sent (what a signature covers). */
  raw: string;
  /** Its `webhook-id` header. */
  id: string;
  /** When it arrived (Date.now()). */
  at: number;
}

/**
 * A receiver on loopback that keeps every request (path, headers, JSON body) and answers 204, or
 * the next status scripted for its path, checking no signature: for tests about WHICH deliveries
 * arrive where and how often, one path per endpoint. Tests about signatures over the wire or held
 * answers use test/wire/outbound-support.ts startReceiver.
 */
export class RecordingReceiver {
  readonly got: Recorded[] = [];
  private readonly scripts = new Map<string, number[]>();
  private server!: Server;
  base = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const path = req.url ?? '/';
        this.got.push({ path, headers: req.headers, body: JSON.parse(body), raw: body, id: String(req.headers['webhook-id']), at: Date.now() });
        res.statusCode = this.scripts.get(path)?.shift() ?? 204;
        res.end(res.statusCode === 204 ? undefined : `answer ${res.statusCode}`);
      });
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.base = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
  }

  /** The statuses the next requests to `path` get, in order (204 after them). */
  script(path: string, statuses: number[]): void {
    this.scripts.set(path, statuses);
  }

  /** What arrived at `path`, in arrival order. */
  at(path: string): Recorded[] {
    return this.got.filter((r) => r.path === path);
  }

  close(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }
}
