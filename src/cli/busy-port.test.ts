import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const main = fileURLToPath(new URL('./main.ts', import.meta.url));

test('serve on a port another process holds says so, naming the port and --port, before creating the database', async () => {
  const holder = createServer();
  await new Promise<void>((resolve) => holder.listen({ port: 0, host: '127.0.0.1' }, resolve));
  const { port } = holder.address() as AddressInfo;
  try {
    const db = join(mkdtempSync(join(tmpdir(), 'restwell-busy-')), 'never.db');
    const res = spawnSync(process.execPath, ['--import', 'tsx', main, 'serve', '--port', String(port), '--host', '127.0.0.1', '--db', db], { encoding: 'utf8' });
    assert.equal(res.status, 1, res.stderr);
    assert.equal(res.stderr, `restwell: port ${port} on 127.0.0.1 is already in use; stop the other server or choose another with --port or PORT\n`);
    assert.equal(existsSync(db), false, 'no database was created or migrated');
  } finally {
    holder.close();
  }
});
