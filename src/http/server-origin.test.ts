import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { test } from 'node:test';
import { ServerOrigin } from './server-origin.js';

const listen = (host: string) => {
  const server = createServer();
  return new Promise<typeof server>((resolve) => server.listen(0, host, () => resolve(server)));
};

test('publicUrl wins, without its trailing slash, before and after listening', async () => {
  const origin = new ServerOrigin('https://api.example.com/', '127.0.0.1', 8080);
  assert.equal(origin.url, 'https://api.example.com');
  const server = await listen('127.0.0.1');
  origin.attach(server);
  assert.equal(origin.url, 'https://api.example.com');
  server.close();
});

test('without publicUrl: every interface reads as localhost, a name stays, an address is used as bound', () => {
  assert.equal(new ServerOrigin(undefined, '0.0.0.0', 8080).url, 'http://localhost:8080');
  assert.equal(new ServerOrigin(undefined, '::', 3000).url, 'http://localhost:3000');
  assert.equal(new ServerOrigin(undefined, 'localhost', 3000).url, 'http://localhost:3000');
  assert.equal(new ServerOrigin(undefined, 'api.internal', 80).url, 'http://api.internal:80');
  assert.equal(new ServerOrigin(undefined, '10.1.2.3', 80).url, 'http://10.1.2.3:80');
  assert.equal(new ServerOrigin(undefined, '::1', 80).url, 'http://[::1]:80');
});

test('once listening, the port bound replaces a configured 0, before any connection is taken', async () => {
  const origin = new ServerOrigin(undefined, '0.0.0.0', 0);
  const server = createServer();
  origin.attach(server);
  const seen = new Promise<string>((resolve) => server.once('connection', (socket) => (socket.destroy(), resolve(origin.url))));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  assert.equal(origin.url, `http://127.0.0.1:${port}`);
  const { connect } = await import('node:net');
  connect(port, '127.0.0.1').on('error', () => {});
  assert.equal(await seen, `http://127.0.0.1:${port}`);
  server.close();
});
