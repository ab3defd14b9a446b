import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { engines } from '../../src/test-support/engines.js';
import { apiKeyHeaders, configFile, startServe, type ServeProcess } from '../support-process.js';

// A fresh schema of the test database, dropped when the test process ends.
const postgres = engines.find((e) => e.name === 'postgres');
const json = { 'content-type': 'application/json' };
const CONFIG = {
  resources: { counters: { fields: { name: { type: 'string', required: true, unique: true }, log: { type: 'json' } }, access: { read: 'public', write: 'public' } } },
  auth: { rateLimit: false },
};

/** Every event after `url`, following `next` links until there is none; returns the `poll` link, to read what comes later. */
async function drainEvents(base: string, url: string, into: any[], auth: Record<string, string>): Promise<string> {
  for (;;) {
    const res = await fetch(base + url, { headers: auth });
    assert.equal(res.status, 200, `GET ${url}`);
    const page = await res.json();
    into.push(...page._embedded.events);
    if (!page._links.next) return page._links.poll.href;
    url = page._links.next.href;
  }
}

describe('two nodes on one PostgreSQL database', { skip: postgres ? false : 'TEST_DATABASE_URL is not set (multi-node needs PostgreSQL)' }, () => {
  let nodes: ServeProcess[] = [];
  let auth: Record<string, string>;
  const node = (i: number) => nodes[i % 2].url;

  before(async () => {
    const url = new URL(postgres!.freshUrl());
    const args = ['--config', configFile(CONFIG), '--db', url.toString()];
    // Started together: schema sync must serialise on its advisory lock, not race.
    nodes = await Promise.all([startServe(args), startServe(args)]);
    auth = apiKeyHeaders(args, 'events:read');
  });

  after(() => Promise.all(nodes.map((n) => n?.stop())));

  test('If-Match, Idempotency-Key and the event log hold across nodes', async () => {
    const created = await fetch(`${node(0)}/counters`, { method: 'POST', headers: json, body: JSON.stringify({ name: 'c', log: [] }) });
    assert.equal(created.status, 201);
    const { id } = await created.json();
    const etag1 = created.headers.get('etag')!;
    /** Every acknowledged change: what the event log must hold, one to one. */
    const changes: string[] = [`counters.created ${id} v1`];

    // A reader pages the log by cursor while the writes below run; it must miss nothing.
    const live: any[] = [];
    let writing = true;
    const reader = (async () => {
      let url = '/events?limit=50';
      while (writing) {
        url = await drainEvents(node(1), url, live, auth);
        await new Promise((r) => setTimeout(r, 5));
      }
      await drainEvents(node(1), url, live, auth);
    })();

    // 200 concurrent replaces of version 1, split across the nodes: exactly one wins.
    const race = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        fetch(`${node(i)}/counters/${id}`, { method: 'PUT', headers: { ...json, 'if-match': etag1 }, body: JSON.stringify({ name: 'c', log: [`race-${i}`] }) }),
      ),
    );
    const statuses = race.map((r) => r.status).sort();
    assert.equal(statuses.filter((s) => s === 200).length, 1, `statuses: ${[...new Set(statuses)]}`);
    assert.equal(statuses.filter((s) => s === 412).length, 199);
    changes.push(`counters.updated ${id} v2`);

    // 8 clients × 25 read-modify-write appends with If-Match, retrying on 412: no update is lost.
    const versions: number[] = [];
    await Promise.all(
      Array.from({ length: 8 }, async (_, client) => {
        for (let n = 0; n < 25; ) {
          const read = await fetch(`${node(client + n)}/counters/${id}`);
          const current = await read.json();
          const put = await fetch(`${node(client + n + 1)}/counters/${id}`, {
            method: 'PUT',
            headers: { ...json, 'if-match': read.headers.get('etag')! },
            body: JSON.stringify({ name: 'c', log: [...current.log, `${client}.${n}`] }),
          });
          if (put.status === 412) continue;
          assert.equal(put.status, 200);
          versions.push((await put.json()).version);
          n++;
        }
      }),
    );
    assert.deepEqual([...versions].sort((a, b) => a - b), Array.from({ length: 200 }, (_, i) => i + 3), 'one success per version');
    for (const v of versions) changes.push(`counters.updated ${id} v${v}`);
    const final = await (await fetch(`${node(1)}/counters/${id}`)).json();
    assert.equal(final.version, 202);
    assert.equal(final.log.length, 201);
    assert.equal(new Set(final.log.slice(1)).size, 200, 'every append survived');

    // 50 identical POSTs with one Idempotency-Key across both nodes: one record; retries replay it.
    const send = (i: number) =>
      fetch(`${node(i)}/counters`, { method: 'POST', headers: { ...json, 'idempotency-key': 'multi-node-1' }, body: JSON.stringify({ name: 'idem', log: [] }) });
    const first = await Promise.all(Array.from({ length: 50 }, (_, i) => send(i)));
    assert.ok(first.every((r) => r.status === 201 || r.status === 409), `statuses: ${[...new Set(first.map((r) => r.status))]}`);
    assert.ok(first.some((r) => r.status === 201));
    const ids = new Set<number>();
    for (const [i, r] of first.entries()) {
      let res = r;
      while (res.status === 409) res = await send(i);
      assert.equal(res.status, 201);
      ids.add((await res.json()).id);
    }
    assert.equal(ids.size, 1, 'every response names the same record');
    const matching = await (await fetch(`${node(0)}/counters?name=idem`)).json();
    assert.equal(matching._embedded.counters.length, 1);
    changes.push(`counters.created ${[...ids][0]} v1`);

    writing = false;
    await reader;
    const all: any[] = [];
    await drainEvents(node(0), '/events?limit=100', all, auth);
    const seen = all.map((e) => `${e.type} ${e.recordId} v${e.data.version}`);
    assert.deepEqual([...seen].sort(), [...changes].sort(), 'the events match the acknowledged changes one to one');
    assert.equal(new Set(all.map((e) => e.id)).size, all.length, 'event ids are unique');
    const order = all.filter((e) => e.recordId === id).map((e) => e.data.version);
    assert.deepEqual(order, Array.from({ length: 202 }, (_, i) => i + 1), "a record's events are in version order");
    assert.deepEqual(live.map((e) => e.id), all.map((e) => e.id), 'a reader paging during the writes missed nothing');
  });
});
