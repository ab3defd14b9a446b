import { request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RestwellServer } from '../../src/app/server.js';
import { waitFor } from '../../src/test-support/wait-for.js';

/** One Server-Sent Event as a client parses it. */
export interface SseEvent {
  id: string;
  data: any;
}

/** An open `GET /events/stream` as a client sees it: what arrived so far, and whether the server ended it. */
export interface SseStream {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body as received (a problem's JSON when the status is not 200). */
  text: string;
  retry?: number;
  events: SseEvent[];
  comments: string[];
  /** Resolves when the connection ends, whoever ended it. */
  closed: Promise<void>;
  isClosed: boolean;
  /** Resolves once `n` events have arrived (fails the test after a generous wait). */
  waitFor(n: number): Promise<SseEvent[]>;
  close(): void;
}

/** Listens on an ephemeral port of 127.0.0.1; returns the port. */
export async function listen(server: RestwellServer): Promise<number> {
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  return (server.app.server.address() as AddressInfo).port;
}

/** Opens a stream over a real socket and parses it as EventSource would (resolves once the headers are in). */
export function openStream(port: number, path = '/events/stream', headers: Record<string, string> = {}): Promise<SseStream> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { accept: 'text/event-stream', ...headers } }, (res) => {
      let buffer = '';
      const waiters: Array<() => void> = [];
      const stream: SseStream = {
        status: res.statusCode!,
        headers: res.headers,
        text: '',
        events: [],
        comments: [],
        isClosed: false,
        // The response's own close, not only its socket's: a stream the server ended cleanly leaves
        // the socket to the agent as an idle keep-alive socket, which is unref'd and may close later.
        closed: new Promise<void>((done) => {
          res.once('close', () => done());
          res.socket.once('close', () => done());
        }).then(() => {
          stream.isClosed = true;
          for (const w of [...waiters]) w();
        }),
        waitFor: (n) => waitUntil(() => stream.events.length >= n || stream.isClosed, waiters, `${n} events (got ${stream.events.length})`).then(() => stream.events.slice(0, n)),
        close: () => req.destroy(),
      };
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        stream.text += chunk;
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          parseBlock(stream, buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
        }
        for (const w of [...waiters]) w();
      });
      res.on('error', () => undefined);
      resolve(stream);
    });
    req.on('error', reject);
    req.end();
  });
}

function parseBlock(stream: SseStream, block: string): void {
  let id: string | undefined;
  let data: string | undefined;
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) stream.comments.push(line.slice(1).trim());
    else if (line.startsWith('retry: ')) stream.retry = Number(line.slice(7));
    else if (line.startsWith('id: ')) id = line.slice(4);
    else if (line.startsWith('data: ')) data = line.slice(6);
    else throw new Error(`unexpected SSE line ${JSON.stringify(line)}`);
  }
  if (data !== undefined) stream.events.push({ id: id!, data: JSON.parse(data) });
}

/** Waits until `done()` holds, checked whenever the stream changes; fails after 10 s. */
function waitUntil(done: () => boolean, waiters: Array<() => void>, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (done()) return resolve();
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), 10_000);
    const check = () => {
      if (!done()) return;
      clearTimeout(timer);
      waiters.splice(waiters.indexOf(check), 1);
      resolve();
    };
    waiters.push(check);
  });
}

/** Polls `check` until it holds (every 20 ms): waits for the event, not for a time. */
export async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  await waitFor(check, what);
}
