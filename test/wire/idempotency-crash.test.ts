import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Agent, fetch, type Response } from 'undici';
import { engines } from '../../src/test-support/engines.js';
import { configFile, startServe } from '../support-process.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
// No unique field: a duplicate would be stored, not refused, so counting records finds it.
const CONFIG = { resources: { items: { fields: { name: { type: 'string', required: true } }, access: { read: 'public', write: 'public' } } }, auth: { rateLimit: false } };

/** Requests beyond these connections queue in the client (the server caps connections per client). */
const dispatcher = new Agent({ connections: 64 });

for (const engine of engines) {
  test(`kill -9 at random moments during POSTs with Idempotency-Keys: every retried key ends with exactly one record (${engine.name})`, { timeout: 300_000 }, async () => {
    const args = ['--db', engine.freshUrl(), '--config', configFile(CONFIG)];
    /** Keys whose response the client has not seen yet (never answered, lost to a kill, or 409 in flight). */
    const pending = new Set<string>();
    /** The record id each key's response named. */
    const answered = new Map<string, number>();
    const unexpected: string[] = [];
    let next = 0;

    const send = async (base: string, key: string) => {
      let res: Response;
      let text: string;
      try {
        res = await fetch(`${base}/items`, { method: 'POST', headers: { 'content-type': 'application/json', 'idempotency-key': key }, body: JSON.stringify({ name: key }), dispatcher });
        text = await res.text();
      } catch {
        return; // the server was killed: the response is lost, the key stays pending
      }
      if (res.status === 409 && text.includes('idempotency-in-flight')) return;
      if (res.status !== 201) {
        unexpected.push(`${key}: ${res.status} ${text}`);
        return;
      }
      const id: number = JSON.parse(text).id;
      assert.equal(answered.get(key) ?? id, id, `${key} was answered with two different records`);
      answered.set(key, id);
      pending.delete(key);
    };

    for (let round = 0; round < 20; round++) {
      const server = await startServe(args);
      for (let i = 0; i < 15; i++) pending.add(`key-${next++}`);
      // New requests and retries of every earlier lost response, then SIGKILL somewhere among them.
      const sent = [...pending].map((key) => send(server.url, key));
      await sleep(Math.random() * 120);
      await server.stop('SIGKILL');
      await Promise.all(sent);
    }

    const server = await startServe(args);
    try {
      // Keys claimed by a killed request whose write never committed are 409 until the claim's lease runs out.
      for (const giveUp = Date.now() + 90_000; pending.size; await sleep(500)) {
        assert.ok(Date.now() < giveUp, `still unanswered: ${[...pending].join(', ')}`);
        await Promise.all([...pending].map((key) => send(server.url, key)));
      }
      assert.deepEqual(unexpected, []);
      assert.equal(answered.size, next);
      for (const [key, id] of answered) {
        const list = (await (await fetch(`${server.url}/items?name=${key}`)).json()) as { count: number };
        assert.equal(list.count, 1, `${key} is stored ${list.count} times`);
        assert.equal(((await (await fetch(`${server.url}/items/${id}`)).json()) as { name: string }).name, key);
      }
      assert.equal(((await (await fetch(`${server.url}/items?limit=1&total=true`)).json()) as { total: number }).total, next, 'no record without a key of its own');
    } finally {
      await server.stop();
    }
  });
}
