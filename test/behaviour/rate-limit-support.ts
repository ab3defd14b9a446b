import { randomBytes } from 'node:crypto';
import type { Writable } from 'node:stream';
import { resolveConfig } from '../../src/config/load.js';
import { createServer, type RestwellServer } from '../../src/app/server.js';
import { REDIS_URL } from '../../src/test-support/redis.js';
import { TEST_DEMO_SECRETS } from '../../src/test-support/test-server.js';

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
