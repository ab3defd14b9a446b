import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT } from './support-process.js';

/**
 * The CommonJS modules a fresh `node` loads while importing `module` (from dist/, as users run it),
 * whose path names `better-sqlite3`: the driver (and its native addon) is CommonJS, so loading it
 * at all puts it in the module cache.
 */
function sqliteDriverLoadedBy(module: string): string[] {
  const script = `
    import { createRequire } from 'node:module';
    await import(${JSON.stringify(join(ROOT, 'dist', module))});
    const cache = createRequire(import.meta.url).cache;
    console.log(JSON.stringify(Object.keys(cache).filter((path) => /[\\\\/]better-sqlite3[\\\\/]/.test(path))));
  `;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' }));
}

test('a PostgreSQL user never loads the SQLite driver: the server, the CLI commands, the demo secrets and openStore do not import it', () => {
  assert.notDeepEqual(sqliteDriverLoadedBy('store/sqlite/sqlite-store.js'), [], 'the check sees the driver when the SQLite engine is imported');
  for (const module of ['webhooks/inbound/demo-secrets.js', 'store/database-location.js', 'store/open.js', 'app/server.js', 'cli/serve.js', 'cli/hooks.js']) {
    assert.deepEqual(sqliteDriverLoadedBy(module), [], `${module} loads better-sqlite3`);
  }
});
