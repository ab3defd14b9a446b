import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

/** One request a RecordingReceiver got: its path, headers and JSON body. */
export interface Recorded {
  path: string;
  headers: IncomingHttpHeaders;
  body: any;
  /** The body as sent (what a signature covers). */
  raw: string;
}

/**
 * A receiver on loopback that keeps every request (path, headers, JSON body) and answers 204,
 * checking no signature: for tests about WHICH deliveries arrive where, one path per endpoint.
 * Tests about signatures, retries or held answers use test/wire/outbound-support.ts startReceiver.
 */
export class RecordingReceiver {
  readonly got: Recorded[] = [];
  private server!: Server;
  base = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        this.got.push({ path: req.url ?? '/', headers: req.headers, body: JSON.parse(body), raw: body });
        res.statusCode = 204;
        res.end();
      });
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.base = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
  }

  /** What arrived at `path`, in arrival order. */
  at(path: string): Recorded[] {
    return this.got.filter((r) => r.path === path);
  }

  close(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }
}
