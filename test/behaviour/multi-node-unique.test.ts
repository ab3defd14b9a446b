import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { engines } from '../../src/test-support/engines.js';
import { configFile, startServe, type ServeProcess } from '../support-process.js';

// A fresh schema of the test database, dropped when the test process ends.
const postgres = engines.find((e) => e.name === 'postgres');
const json = { 'content-type': 'application/json' };
const CONFIG = { resources: { people: { fields: { name: { type: 'string', required: true, unique: true } }, access: { read: 'public', write: 'public' } } }, auth: { rateLimit: false } };

describe('clashing unique writes on two nodes sharing PostgreSQL', { skip: postgres ? false : 'TEST_DATABASE_URL is not set (multi-node needs PostgreSQL)' }, () => {
  let nodes: ServeProcess[] = [];

  before(async () => {
    const url = new URL(postgres!.freshUrl());
    // A small pool makes starvation certain if a failing write holds one connection while it waits for another.
    url.searchParams.set('pool_max', '3');
    const args = ['--config', configFile(CONFIG), '--db', url.toString()];
    nodes = await Promise.all([startServe(args), startServe(args)]);
  });

  after(() => Promise.all(nodes.map((n) => n?.stop())));

  test('50 POSTs of one unique name: one 201, 49 × 409 problem+json, never 503; a concurrent read is served', async () => {
    const seed = await fetch(`${nodes[0].url}/people`, { method: 'POST', headers: json, body: JSON.stringify({ name: 'seed' }) });
    assert.equal(seed.status, 201);
    const seedPath = seed.headers.get('location')!;

    const posts = Array.from({ length: 50 }, (_, i) =>
      fetch(`${nodes[i % 2].url}/people`, { method: 'POST', headers: json, body: JSON.stringify({ name: 'Same Name' }) }),
    );
    const reads = [nodes[0], nodes[1]].map((n) => fetch(`${n.url}${seedPath}`));
    const responses = await Promise.all(posts);
    const statuses = responses.map((r) => r.status);
    assert.equal(statuses.filter((s) => s === 201).length, 1, `statuses: ${statuses.join(',')}`);
    assert.equal(statuses.filter((s) => s === 409).length, 49, `statuses: ${statuses.join(',')}`);
    for (const res of responses.filter((r) => r.status === 409)) {
      assert.match(res.headers.get('content-type')!, /^application\/problem\+json/);
      const problem = await res.json();
      assert.match(problem.type, /unique-violation$/);
      assert.match(problem.detail, /name "Same Name" is already used by \/people\/\d+/, 'the conflict names the holder');
    }
    for (const read of await Promise.all(reads)) assert.equal(read.status, 200);

    const list = await (await fetch(`${nodes[1].url}/people?name=Same%20Name`)).json();
    assert.equal(list.count, 1);
  });
});
