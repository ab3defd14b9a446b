import assert from 'node:assert/strict';
import { test } from 'node:test';
import { redact } from '../../cli/redact.js';
import { isCredentialName } from './credential-name.js';
import { loggableUrl } from './loggable-url.js';

const CREDENTIALS = [
  'token', 'access_token', 'id_token', 'refresh_token', 'accessToken', 'X-Amz-Security-Token', 'csrftoken',
  'secret', 'client_secret', 'clientSecret', 'webhook_secret',
  'key', 'api_key', 'apikey', 'API_KEY', 'apiKey', 'x-api-key', 'accesskey', 'signing_key', 'private_key',
  'password', 'passwd', 'pwd', 'pass', 'sslpassword', 'user_password',
  'auth', 'authorization', 'auth_token', 'oauth_verifier',
  'session', 'sessionid', 'PHPSESSID', 'session_id', 'sid',
  'signature', 'X-Amz-Signature', 'sig', 'hmac', 'X-Amz-Credential', 'credentials',
  'jwt', 'id_jwt', 'code', 'otp', 'nonce', 'ticket', 'bearer', 'cookie',
];
const ORDINARY = [
  'sort', 'limit', 'cursor', 'fields', 'expand', 'q', 'page', 'after', 'before', 'include', 'name', 'number', 'id',
  'name[eq]', 'number[startsWith]', 'author', 'authors', 'author[eq]', 'keyword', 'status', 'type', 'from', 'to', 'subject',
  'receivedAt', 'createdAt', '_page', '_limit', '_sort', '_order', 'title', 'zipcode', 'design', 'passenger',
];

test('credential-like names (a rule, not a list) are told from the parameters lists and filters take', () => {
  for (const name of CREDENTIALS) assert.ok(isCredentialName(name), `${name} is a credential`);
  for (const name of ORDINARY) assert.ok(!isCredentialName(name), `${name} is not`);
});

test('logged URLs keep ordinary parameters as sent and redact every credential-like one, however encoded', () => {
  const url = `/characters?${CREDENTIALS.map((n) => `${encodeURIComponent(n)}=v`).join('&')}&${ORDINARY.map((n) => `${encodeURIComponent(n)}=v`).join('&')}`;
  const logged = new URLSearchParams(loggableUrl(url).split('?')[1]);
  for (const name of CREDENTIALS) assert.equal(logged.get(name), '[redacted]', name);
  for (const name of ORDINARY) assert.equal(logged.get(name), 'v', name);
  assert.equal(loggableUrl('/x?%74oken=z&X-Amz-Signature=abc&flag'), '/x?%74oken=[redacted]&X-Amz-Signature=[redacted]&flag');
});

test('database URLs in logs lose the password, in the userinfo or in a parameter', () => {
  assert.equal(redact('postgres://app:hunter2@db/shop?schema=s&sslpassword=x&password=y'), 'postgres://app:***@db/shop?schema=s&sslpassword=***&password=***');
  assert.equal(redact('postgres://db/shop?schema=s'), 'postgres://db/shop?schema=s');
  assert.equal(redact('./data/restwell.db'), './data/restwell.db');
});
