import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import type { RestwellServer } from '../../src/app/server.js';
import { opsState } from '../../src/app/ops/ops-state.js';
import { storageMeasures } from '../../src/app/ops/storage-metrics.js';
import { StoreUnavailableError } from '../../src/store/errors.js';
import { eventStreams } from '../../src/events/stream/event-streams.js';
import { newDeliveryId } from '../../src/store/inbox.js';
import { parseExposition, sampleValue, type Exposition } from '../../src/test-support/prometheus-text.js';
import { engines, PUBLIC_DEMO, testServer } from '../../src/test-support/test-server.js';
import { waitFor } from '../../src/test-support/wait-for.js';
import { connect } from 'node:net';
import { listen, openStream, type SseStream } from './stream-support.js';

/** Public records, public metrics, events behind `events:read`, and a webhook source whose deliveries are counted while they wait. */
const CONFIG = {
  ...PUBLIC_DEMO,
  server: { metrics: 'public' },
  events: { stream: { bufferSize: '64kb' } },
  webhooks: { sources: { plain: { provider: 'generic', verify: 'none', actions: [{ store: 'messages' }] } } },
};

for (const engine of engines) {
  describe(`gauges an operator alerts on (${engine.name})`, () => {
    let server: RestwellServer;
    let port: number;
    let closed = false;
    const lines: any[] = [];
    const open: SseStream[] = [];
    const logs = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
        done();
      },
    });
    const scrape = async (): Promise<Exposition> => {
      const res = await server.app.inject({ method: 'GET', url: '/metrics' });
      assert.equal(res.statusCode, 200, res.body);
      return parseExposition(res.body);
    };
    /** A scrape that measures the database again (the figures are otherwise cached for seconds). */
    const freshScrape = async (): Promise<Exposition> => {
      storageMeasures(server.context)!.size?.invalidate();
      storageMeasures(server.context)!.backlog.invalidate();
      return scrape();
    };
    const value = (m: Exposition, name: string, labels: Record<string, string> = {}) => sampleValue(m, name, labels);
    const streamLines = (what: 'opened' | 'closed') => lines.filter((l) => l.stream === what);

    before(async () => {
      server = await testServer(engine, CONFIG, {}, { level: 'info', stream: logs });
      port = await listen(server);
    });
    after(async () => {
      for (const s of open) s.close();
      if (!closed) await server.close();
    });

    test('open streams are a gauge; opens and ends are counted by reason and logged without the token', async () => {
      const { key, info } = await server.context.auth.apiKeys.create({ name: 'watcher', scopes: ['events:read'] });
      const { key: other, info: otherInfo } = await server.context.auth.apiKeys.create({ name: 'revoked-later', scopes: ['events:read'] });
      const start = await scrape();
      assert.equal(start.types.get('restwell_event_streams_open'), 'gauge');
      assert.equal(start.types.get('restwell_event_streams_closed_total'), 'counter');
      assert.equal(value(start, 'restwell_event_streams_open'), 0);
      // Every reason has a series from the start, so a rate over it is defined before the first such end.
      for (const reason of ['client-closed', 'revoked', 'expired', 'shutdown', 'slow-consumer', 'error']) {
        assert.ok(start.samples.some((s) => s.name === 'restwell_event_streams_closed_total' && s.labels.reason === reason && s.value === 0), reason);
      }

      const first = await openStream(port, '/events/stream?type=characters.created', { authorization: `Bearer ${key}` });
      const second = await openStream(port, '/events/stream', { authorization: `Bearer ${other}` });
      open.push(first, second);
      assert.equal(first.status, 200);
      assert.equal(second.status, 200);
      const two = await scrape();
      assert.equal(value(two, 'restwell_event_streams_open'), 2);
      assert.equal(value(two, 'restwell_event_streams_opened_total') - value(start, 'restwell_event_streams_opened_total'), 2);

      assert.equal((await server.app.inject({ method: 'POST', url: '/characters', payload: { name: `Streamed ${engine.name}` } })).statusCode, 201);
      await first.waitFor(1);
      first.close();
      const one = await waitFor(async () => {
        const m = await scrape();
        return value(m, 'restwell_event_streams_open') === 1 && m;
      }, 'the closed stream to leave the gauge');
      assert.equal(value(one, 'restwell_event_streams_closed_total', { reason: 'client-closed' }), 1);

      // Revoking the second stream's key ends it: counted as revoked.
      assert.ok(await server.context.auth.apiKeys.revoke(otherInfo.id));
      server.context.auth.revocations.revoked();
      await second.closed;
      const none = await waitFor(async () => {
        const m = await scrape();
        return value(m, 'restwell_event_streams_open') === 0 && m;
      }, 'the revoked stream to leave the gauge');
      assert.equal(value(none, 'restwell_event_streams_closed_total', { reason: 'revoked' }), 1);
      assert.equal(value(none, 'restwell_event_streams_closed_total', { reason: 'client-closed' }), 1);

      const opened = streamLines('opened');
      assert.equal(opened.length, 2, JSON.stringify(lines));
      assert.deepEqual(
        opened.map((l) => [l.level, l.msg, l.via, l.principal, l.types, l.resumed]),
        [
          [30, 'event stream opened', 'api-key', `key:${info.id}`, 'characters.created', false],
          [30, 'event stream opened', 'api-key', `key:${otherInfo.id}`, undefined, false],
        ],
      );
      const closed = await waitFor(() => streamLines('closed').length === 2 && streamLines('closed'), 'both closing lines');
      const byPrincipal = new Map(closed.map((l) => [l.principal, l]));
      const firstClosed = byPrincipal.get(`key:${info.id}`);
      assert.equal(firstClosed.reason, 'client-closed');
      assert.equal(firstClosed.events, 1);
      assert.equal(typeof firstClosed.seconds, 'number');
      assert.ok(firstClosed.reqId, 'the closing line carries the request id of the opening one');
      assert.equal(firstClosed.reqId, opened[0].reqId);
      assert.match(firstClosed.msg, /^event stream closed \(client-closed\) after [\d.]+ s, 1 events sent$/);
      assert.equal(byPrincipal.get(`key:${otherInfo.id}`).reason, 'revoked');
      const all = JSON.stringify(lines);
      assert.ok(!all.includes(key) && !all.includes(other), 'no token reaches the log');
    });

    test('a client that stops reading is counted and logged as slow-consumer', async () => {
      const { key, info } = await server.context.auth.apiKeys.create({ name: 'stalls', scopes: ['events:read'] });
      const before = await scrape();
      // A raw socket that sends the request and then reads nothing: the server's send queue can only grow.
      const stalled = connect(port, '127.0.0.1');
      stalled.on('error', () => undefined);
      const gone = new Promise((resolve) => stalled.on('close', resolve));
      stalled.write(`GET /events/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\nAuthorization: Bearer ${key}\r\n\r\n`);
      await waitFor(() => eventStreams(server.context, server.app.log).openStreams === 1, 'the stream to open');
      stalled.pause();
      const big = 'x'.repeat(50_000);
      for (let i = 0; eventStreams(server.context, server.app.log).openStreams > 0; i++) {
        assert.ok(i < 1000, 'the stalled client was never dropped');
        assert.equal((await server.app.inject({ method: 'POST', url: '/messages', payload: { text: big } })).statusCode, 201);
      }
      stalled.resume();
      await gone;
      const after = await scrape();
      assert.equal(value(after, 'restwell_event_streams_closed_total', { reason: 'slow-consumer' }) - value(before, 'restwell_event_streams_closed_total', { reason: 'slow-consumer' }), 1);
      assert.equal(value(after, 'restwell_event_streams_open'), 0);
      const line = await waitFor(() => streamLines('closed').find((l) => l.principal === `key:${info.id}`), 'the closing line');
      assert.equal(line.reason, 'slow-consumer');
      assert.ok(line.events > 0);
    });

    test('a stream refused (bad Last-Event-ID) is a request, not an open stream', async () => {
      const before = await scrape();
      const { key } = await server.context.auth.apiKeys.create({ name: 'resumer', scopes: ['events:read'] });
      const refused = await openStream(port, '/events/stream', { authorization: `Bearer ${key}`, 'last-event-id': 'evt_nope' });
      open.push(refused);
      assert.equal(refused.status, 400);
      await refused.closed;
      await waitFor(() => eventStreams(server.context, server.app.log).size === 0, 'the refused stream to be forgotten');
      const after = await scrape();
      assert.equal(value(after, 'restwell_event_streams_opened_total'), value(before, 'restwell_event_streams_opened_total'));
      assert.equal(value(after, 'restwell_event_streams_open'), 0);
    });

    test('the database and the event log have a size, and the log grows with writes', async () => {
      const before = await freshScrape();
      for (const name of ['restwell_database_size_bytes', 'restwell_event_log_rows']) assert.equal(before.types.get(name), 'gauge', name);
      assert.ok(value(before, 'restwell_database_size_bytes') > 0);
      const rows = value(before, 'restwell_event_log_rows');
      const written = 150;
      for (let i = 0; i < written; i += 30) {
        const batch = Array.from({ length: 30 }, (_, j) => server.app.inject({ method: 'POST', url: '/characters', payload: { name: `Sized ${i + j} ${'x'.repeat(150)}` } }));
        for (const res of await Promise.all(batch)) assert.equal(res.statusCode, 201, res.body);
      }
      const after = await freshScrape();
      // Exact on SQLite; on PostgreSQL the span of positions may include a gap or two, never fewer.
      if (engine.name === 'sqlite') assert.equal(value(after, 'restwell_event_log_rows') - rows, written);
      else assert.ok(value(after, 'restwell_event_log_rows') - rows >= written);
      assert.ok(value(after, 'restwell_database_size_bytes') > value(before, 'restwell_database_size_bytes'), 'the database grew');
      const bytes = after.samples.find((s) => s.name === 'restwell_event_log_bytes');
      if (engine.name === 'sqlite') assert.equal(bytes, undefined, 'SQLite cannot tell the log\'s bytes without reading it: no sample');
      else {
        assert.ok(bytes!.value > value(before, 'restwell_event_log_bytes'), 'the event log\'s bytes grew');
        assert.ok(bytes!.value <= value(after, 'restwell_database_size_bytes'));
      }
    });

    test('a storm of scrapes costs one measurement of each kind', async () => {
      const measures = storageMeasures(server.context)!;
      measures.size!.invalidate();
      measures.backlog.invalidate();
      const sizes = measures.size!.measurements;
      const backlogs = measures.backlog.measurements;
      const scrapes = await Promise.all(Array.from({ length: 25 }, () => scrape()));
      for (const m of scrapes) assert.ok(value(m, 'restwell_database_size_bytes') > 0);
      // And scrapes right after, within the cache's age, none at all.
      await scrape();
      assert.equal(measures.size!.measurements - sizes, 1);
      assert.equal(measures.backlog.measurements - backlogs, 1);
    });

    test('inbound deliveries waiting for their actions are a gauge per configured source, with the oldest one\'s age', async () => {
      const before = await freshScrape();
      assert.equal(value(before, 'restwell_inbound_pending_deliveries', { source: 'plain' }), 0);
      assert.equal(value(before, 'restwell_inbound_oldest_pending_seconds', { source: 'plain' }), 0);
      // Stored as the receiving route stores them, but due far in the future: the worker leaves them waiting.
      const waiting = (source: string, receivedAt: Date) =>
        server.store.inbox.receive({
          id: newDeliveryId(), source, eventId: `e-${Math.random()}`, receivedAt: receivedAt.toISOString(), headers: {}, contentType: 'application/json', body: Buffer.from('{}'),
          verification: { scheme: 'none' }, status: 'received', nextAttemptAt: '2999-01-01T00:00:00.000Z', lastError: null, response: { status: 200, contentType: 'application/json', body: '{}' },
        });
      await waiting('plain', new Date(Date.now() - 120_000));
      await waiting('plain', new Date());
      await waiting('a-source-no-longer-configured', new Date());
      const after = await freshScrape();
      assert.equal(value(after, 'restwell_inbound_pending_deliveries', { source: 'plain' }), 2);
      const age = value(after, 'restwell_inbound_oldest_pending_seconds', { source: 'plain' });
      assert.ok(age >= 120 && age < 3600, String(age));
      assert.ok(!after.samples.some((s) => s.labels.source === 'a-source-no-longer-configured'), 'only configured sources are labels');
    });

    test('restwell_ready says what /readyz would: 1, then 0 while the database does not answer or the server drains', async () => {
      const measures = storageMeasures(server.context)!;
      const ready = async () => {
        measures.ping.invalidate();
        const m = await scrape();
        assert.equal(m.types.get('restwell_ready'), 'gauge');
        return value(m, 'restwell_ready');
      };
      assert.equal(await ready(), 1);
      const ping = server.store.ping;
      server.store.ping = async () => {
        throw new StoreUnavailableError('the database cannot be reached (ECONNREFUSED); retry shortly');
      };
      try {
        assert.equal(await ready(), 0);
        assert.equal((await server.app.inject({ method: 'GET', url: '/readyz' })).statusCode, 503, 'as /readyz says');
      } finally {
        server.store.ping = ping;
      }
      assert.equal(await ready(), 1);
      opsState(server.context).draining = true;
      try {
        assert.equal(await ready(), 0);
      } finally {
        opsState(server.context).draining = false;
      }
    });

    test('shutting down ends the open streams, logged as shutdown', async () => {
      const { key } = await server.context.auth.apiKeys.create({ name: 'until-shutdown', scopes: ['events:read'] });
      const s = await openStream(port, '/events/stream', { authorization: `Bearer ${key}` });
      open.push(s);
      assert.equal(s.status, 200);
      closed = true;
      await server.close();
      await s.closed;
      const line = await waitFor(() => streamLines('closed').find((l) => l.reason === 'shutdown'), 'the shutdown line');
      assert.match(line.msg, /^event stream closed \(shutdown\)/);
    });
  });
}
