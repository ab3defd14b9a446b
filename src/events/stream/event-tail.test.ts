import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { test } from 'node:test';
import type { FastifyBaseLogger } from 'fastify';
import type { EventRecord } from '../../core/events.js';
import type { Store } from '../../store/store.js';
import { EventTail } from './event-tail.js';
import { sseFrame } from './sse-frame.js';
import { StreamClient } from './stream-client.js';

const quiet = { info() {}, warn() {}, debug() {} } as unknown as FastifyBaseLogger;

/** A log in memory, with the two Store calls the tail makes. */
function memoryLog() {
  const events: EventRecord[] = [];
  const listeners = new Set<() => void>();
  const store = {
    listEvents: async ({ after = 0, limit = 100 }: { after?: number; limit?: number }) => events.filter((e) => e.seq > after).slice(0, limit),
    onEventsAppended: (listener: () => void) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  } as unknown as Store;
  const append = (...types: string[]) => {
    for (const type of types) {
      const seq = events.length + 1;
      events.push({ seq, id: `evt_${seq}`, type, resource: 'characters', recordId: seq, data: { id: seq, name: `c${seq}` }, createdAt: '2026-01-01T00:00:00.000Z', owner: null });
    }
    for (const l of listeners) l();
  };
  return { store, events, append };
}

/** The part of a ServerResponse a stream writes to, recording each write. */
function recordingResponse() {
  const res = Object.assign(new EventEmitter(), {
    writes: [] as Buffer[],
    headersSent: true,
    writableLength: 0,
    write(chunk: Buffer) {
      res.writes.push(chunk);
      return true;
    },
    end() {},
    destroy() {
      res.emit('close');
    },
  });
  return res;
}

async function until(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((resolve) => setImmediate(resolve));
}

async function liveClient(tail: EventTail, types: string[] = []) {
  const res = recordingResponse();
  const client = new StreamClient(res as unknown as ServerResponse, { types }, 1024 * 1024, quiet);
  await tail.join(client);
  client.goLive();
  return { res, client };
}

test('the events one read of the log hands out reach each live stream in one write: the same shared buffer for every stream that takes them all, its own part for a filtered one', async () => {
  const log = memoryLog();
  const tail = new EventTail(log.store, quiet, 64 * 1024);
  const a = await liveClient(tail);
  const b = await liveClient(tail);
  const filtered = await liveClient(tail, ['characters.deleted']);
  log.append('characters.created', 'characters.deleted', 'characters.created', 'characters.deleted');
  await until(() => a.res.writes.length > 0 && filtered.res.writes.length > 0);

  const all = Buffer.concat(log.events.map(sseFrame));
  assert.equal(a.res.writes.length, 1);
  assert.deepEqual(a.res.writes[0], all);
  assert.equal(b.res.writes[0], a.res.writes[0], 'one buffer for both unfiltered streams, not a copy each');
  assert.deepEqual(Buffer.concat(filtered.res.writes), Buffer.concat([log.events[1], log.events[3]].map(sseFrame)));
  assert.equal(filtered.res.writes.length, 1);
  assert.deepEqual([a.client.eventsSent, filtered.client.eventsSent], [4, 2]);

  // The next read brings only what is new: nothing is written twice.
  log.append('characters.created');
  await until(() => a.res.writes.length > 1);
  assert.deepEqual(Buffer.concat(a.res.writes), Buffer.concat(log.events.map(sseFrame)));
  assert.equal(filtered.res.writes.length, 1);
  tail.stop();
});

test('a burst larger than the bytes handed out between turns of the event loop goes out in several writes, every event once and in order', async () => {
  const log = memoryLog();
  // One byte: the tail yields after every event, and each run is written before it yields.
  const tail = new EventTail(log.store, quiet, 1);
  const a = await liveClient(tail);
  log.append('characters.created', 'characters.updated', 'characters.deleted');
  await until(() => a.client.eventsSent === 3);
  assert.equal(a.res.writes.length, 3);
  assert.deepEqual(Buffer.concat(a.res.writes), Buffer.concat(log.events.map(sseFrame)));
  tail.stop();
});

test('a stream whose unread bytes pass its buffer is dropped at the next write instead of queueing more', async () => {
  const log = memoryLog();
  const tail = new EventTail(log.store, quiet, 64 * 1024);
  const slow = await liveClient(tail);
  slow.res.writableLength = 2 * 1024 * 1024;
  log.append('characters.created');
  await until(() => slow.client.isClosed);
  assert.equal(slow.client.endReason, 'slow-consumer');
  assert.equal(slow.res.writes.length, 0);
  tail.stop();
});
