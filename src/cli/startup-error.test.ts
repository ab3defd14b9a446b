import assert from 'node:assert/strict';
import { test } from 'node:test';
import { listenFailure, StartupError } from './startup-error.js';

const failure = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

test('listen failures a user can fix become one-line StartupErrors; others pass through', () => {
  const inUse = listenFailure(failure('EADDRINUSE'), 8080, '0.0.0.0');
  assert.ok(inUse instanceof StartupError);
  assert.equal(inUse.message, 'port 8080 on 0.0.0.0 is already in use; stop the other server or choose another with --port or PORT');
  const denied = listenFailure(failure('EACCES'), 80, '0.0.0.0') as Error;
  assert.ok(denied instanceof StartupError);
  assert.match(denied.message, /^port 80 on 0\.0\.0\.0 needs privileges this process lacks \(ports below 1024 do\); choose a port from 1024 up with --port or PORT/);
  assert.match((listenFailure(failure('EADDRNOTAVAIL'), 8080, '10.9.8.7') as Error).message, /^10\.9\.8\.7 is not an address of this machine/);
  const other = failure('EWHATEVER');
  assert.equal(listenFailure(other, 8080, '0.0.0.0'), other);
});
