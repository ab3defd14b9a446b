import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { resolveConfig } from '../config/load.js';
import { dropInListen } from './import-serve.js';
import { openLocalWrites } from './open-local-writes.js';

const config = (host: string) =>
  resolveConfig({ resources: { posts: { fields: { title: { type: 'string' } } }, notes: { fields: {}, access: { write: ['notes:write'] } } } }, { env: {}, overrides: { host } });

describe('serve db.json as a drop-in for json-server', () => {
  it('opens writes of resources without an access block on loopback, and says so', () => {
    for (const host of ['127.0.0.1', 'localhost', '::1']) {
      const { config: opened, notice } = openLocalWrites(config(host));
      assert.deepEqual(opened.resources.posts!.access, { write: 'public' });
      assert.deepEqual(opened.resources.notes!.access, { write: ['notes:write'] }, 'an access block is kept as written');
      assert.match(notice!, new RegExp(`^Writes are open to this machine \\(${host.replace(/[.:]/g, '\\$&')}\\) .*\\(posts: no access block in the config\\); bind another --host and writes need a token\\.$`));
    }
  });

  it('opens nothing on any other interface', () => {
    for (const host of ['0.0.0.0', '::', '192.168.1.5', 'example.com']) {
      const { config: kept, notice } = openLocalWrites(config(host));
      assert.equal(kept.resources.posts!.access, undefined);
      assert.equal(notice, undefined);
    }
  });

  it("listens on json-server's port and loopback unless a flag, the environment or the config says otherwise", () => {
    const dir = mkdtempSync(join(tmpdir(), 'restwell-dropin-'));
    const none = join(dir, 'none.yaml');
    assert.deepEqual(dropInListen({}, none, {}), { port: 3000, host: '127.0.0.1' });
    assert.deepEqual(dropInListen({ port: 4000, host: '0.0.0.0' }, none, {}), { port: 4000, host: '0.0.0.0' });
    assert.deepEqual(dropInListen({}, none, { PORT: '5000', HOST: '::1' }), { port: undefined, host: undefined });
    const file = join(dir, 'db.restwell.yaml');
    writeFileSync(file, 'server:\n  port: 8081\nresources: {}\n');
    assert.deepEqual(dropInListen({}, file, {}), { port: undefined, host: '127.0.0.1' });
  });
});
