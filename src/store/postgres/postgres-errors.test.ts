import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StoreRefusedError, StoreUnavailableError } from '../errors.js';
import { connectFailure } from './postgres-errors.js';

const failure = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

test('PostgreSQL refusals for good are StoreRefusedError with the fix; the rest stay retryable', () => {
  const url = 'postgres://app:secret@db.internal:6543/shop';
  const missing = connectFailure(failure('3D000', 'database "shop" does not exist'), url);
  assert.ok(missing instanceof StoreRefusedError);
  assert.equal(missing.message, 'database "shop" does not exist on PostgreSQL at db.internal:6543; create it with: createdb -h db.internal -p 6543 -U app shop');
  const password = connectFailure(failure('28P01', 'password authentication failed for user "app"'), url);
  assert.ok(password instanceof StoreRefusedError);
  assert.equal(password.message, 'PostgreSQL at db.internal:6543 refused user "app": wrong password (28P01); check the password in the database URL');
  assert.ok(!password.message.includes('secret'), 'the password is never echoed');
  assert.ok(connectFailure(failure('28000', 'role "app" does not exist'), url) instanceof StoreRefusedError);
  const refused = connectFailure(failure('ECONNREFUSED', 'connect ECONNREFUSED'), url);
  assert.ok(refused instanceof StoreUnavailableError && !(refused instanceof StoreRefusedError));
  assert.ok(!(connectFailure(failure('57P03', 'the database system is starting up'), url) instanceof StoreRefusedError));
});
