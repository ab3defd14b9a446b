import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import type { Writable } from 'node:stream';
import { resolveConfig } from '../../src/config/load.js';
import { createServer, type RestwellServer } from '../../src/app/server.js';
import { TEST_DEMO_SECRETS } from '../../src/test-support/test-server.js';

/** The Redis every machine of this kind runs; tests over Redis skip when it does not answer. */
export const REDIS_URL = 'redis://127.0.0.1:6379';

/** Whether a Redis server answers PING at REDIS_URL (within two seconds). */
export function redisAnswers(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(6379, '127.0.0.1');
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(2000, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (d) => done(d.toString().startsWith('+PONG')));
  });
}

/** A `redis` section with a key prefix of its own, so tests (and runs) never share counts. */
export function redisSection(url = REDIS_URL): { url: string; keyPrefix: string } {
  return { url, keyPrefix: `rw-test-${randomBytes(5).toString('hex')}:` };
}

/** A public resource: reads need no credential, so anonymous requests count against the client address. */
export const ITEMS = { items: { fields: { name: { type: 'string' } }, access: { read: 'public', write: 'public' } } };

/** The log lines a server writes, parsed (pino JSON lines). */
export interface LogLines {
  lines: Array<{ level: number; msg: string; [k: string]: unknown }>;
  stream: Pick<Writable, 'write'>;
}

/** A log sink for `createServer({ logger })`: every line it gets, parsed. */
export function logLines(): LogLines {
  const lines: LogLines['lines'] = [];
  return {
    lines,
    stream: {
      write: (chunk: string) => {
        for (const line of String(chunk).split('\n')) if (line.trim()) lines.push(JSON.parse(line));
        return true;
      },
    } as Pick<Writable, 'write'>,
  };
}

/** A server on the given database URL (several may share one), with the demo secrets and its log lines kept. */
export async function nodeOn(database: string, config: Record<string, unknown>, log = logLines()): Promise<RestwellServer & { log: LogLines }> {
  const resolved = resolveConfig(config, { env: TEST_DEMO_SECRETS, overrides: { database } });
  const server = await createServer(resolved, { logger: { level: 'info', stream: log.stream as never } });
  return Object.assign(server, { log });
}
