import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { notRun, reason } from '../context.js';
import type { BenchContext } from '../settings.js';
import { writeRestwellConfig } from '../data.js';
import { GROUPS, SERVERS } from '../groups.js';
import type { Measurement, Row } from '../load.js';
import { startRestwell } from '../servers.js';
import { BASE_URL, dropSchema, reachable } from './postgres.js';

/** Events per bulk statement of the writer. */
const CHUNK = 5_000;
/**
 * Events appended per second: about three times what the API's durable POST reaches on this
 * 2-core machine, so the worker is measured against a write rate no client could exceed.
 */
const RATE = 10_000;
/** Longest wait for the worker to bring the log back within retention after the last write. */
const SETTLE_MS = 120_000;

/** A character record as an event carries it (about the size the API writes). */
const DATA = JSON.stringify({ id: 1, name: 'Bench Character With A Name', number: '+1-555-0199', version: 1, createdAt: '2026-11-26T00:00:00.000Z', updatedAt: '2026-11-26T00:00:00.000Z' });

interface Sizing {
  writes: number;
  retain: number;
  partition: number;
}

/** The log one engine keeps: how to append a chunk, count what is kept, and measure the database's size on disk. */
interface LogTarget {
  append(n: number): Promise<void>;
  count(): Promise<number>;
  bytes(): Promise<number>;
  close(): Promise<void>;
}

/**
 * Retention (bounded growth): a Restwell whose event log keeps the newest `retain` events
 * (100k; 20k in a quick run), with its real background worker pruning (`retention.interval: 1s`,
 * batches of 5,000); the bench appends `writes` events (1M; 200k quick) straight into the log, 5,000
 * per statement, paced at RATE (the API would take many minutes for 1M on 2 cores, and the worker,
 * not the writer, is what is measured). The database's size is taken once `retain` events are in (nothing
 * pruned yet), then after every write once the worker has brought the log back within retention:
 * SQLite the file plus its WAL after a TRUNCATE checkpoint, PostgreSQL `pg_total_relation_size` of
 * every table in the run's schema. Target: the second within 20% of the first.
 */
export async function retentionRows(ctx: BenchContext): Promise<Row[]> {
  const sizing: Sizing = ctx.settings.quick ? { writes: 200_000, retain: 20_000, partition: 2_000 } : { writes: 1_000_000, retain: 100_000, partition: 10_000 };
  const config = writeRestwellConfig(join(ctx.work, 'retention.config.json'), {
    events: { retention: { maxCount: sizing.retain, maxAge: 'off', partitionSize: sizing.partition } },
    retention: { interval: '1s', batchSize: CHUNK },
  });
  const rows: Row[] = [];
  rows.push(await sqliteRow(ctx, config, sizing).catch((err) => notRun(GROUPS.retention.id, GROUPS.retention.label, SERVERS.restwell, `failed: ${reason(err)}`)));
  rows.push(await postgresRow(ctx, config, sizing).catch((err) => notRun(GROUPS.retention.id, GROUPS.retention.label, SERVERS.postgres, `failed: ${reason(err)}`)));
  return rows;
}

async function sqliteRow(ctx: BenchContext, config: string, sizing: Sizing): Promise<Row> {
  const file = join(ctx.work, 'retention.db');
  const rw = await startRestwell({ db: file, config, name: SERVERS.restwell });
  try {
    const db = new BetterSqlite3(file);
    db.pragma('busy_timeout = 10000');
    const insert = db.prepare("INSERT INTO _rw_events (id, type, resource, record_id, data, created_at) VALUES (?, 'characters.created', 'characters', ?, ?, ?)");
    let n = 0;
    const many = db.transaction((count: number) => {
      const at = new Date().toISOString();
      for (let i = 0; i < count; i++) insert.run(eventId(++n), String(n), DATA, at);
    });
    const target: LogTarget = {
      append: async (count) => many(count),
      count: async () => (db.prepare('SELECT count(*) AS n FROM _rw_events').get() as { n: number }).n,
      bytes: async () => {
        // The server's connection may be mid-write: checkpoint again until the WAL is empty.
        for (let i = 0; i < 50; i++) {
          const [r] = db.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number }>;
          if (!r?.busy) break;
          await sleep(100);
        }
        const size = (f: string) => {
          try {
            return statSync(f).size;
          } catch {
            return 0;
          }
        };
        return size(file) + size(`${file}-wal`);
      },
      close: async () => {
        db.close();
      },
    };
    return await measureRetention(ctx, SERVERS.restwell, target, sizing, 'SQLite file + WAL after a TRUNCATE checkpoint');
  } finally {
    await rw.stop();
  }
}

async function postgresRow(ctx: BenchContext, config: string, sizing: Sizing): Promise<Row> {
  const unreachable = await reachable();
  if (unreachable) return notRun(GROUPS.retention.id, GROUPS.retention.label, SERVERS.postgres, `n/a (PostgreSQL not reachable at ${BASE_URL}: ${unreachable})`);
  const schema = `rw_bench_${randomBytes(5).toString('hex')}`;
  const url = new URL(BASE_URL);
  url.searchParams.set('schema', schema);
  const rw = await startRestwell({ db: url.toString(), config, name: SERVERS.postgres });
  const client = new pg.Client({ connectionString: BASE_URL });
  try {
    await client.connect();
    await client.query(`SET search_path = "${schema}"`);
    let n = 0;
    const target: LogTarget = {
      append: async (count) => {
        await client.query(
          `INSERT INTO _rw_events (id, type, resource, record_id, data, created_at)
           SELECT 'evt_' || lpad(to_hex($1::bigint + g), 32, '0'), 'characters.created', 'characters', ($1::bigint + g)::text, $2, $3 FROM generate_series(1, $4::int) g`,
          [n, DATA, new Date().toISOString(), count],
        );
        n += count;
      },
      count: async () => Number((await client.query('SELECT count(*) AS n FROM _rw_events')).rows[0].n),
      bytes: async () =>
        Number(
          (await client.query(`SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) AS b FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace WHERE s.nspname = $1 AND c.relkind = 'r'`, [schema])).rows[0].b,
        ),
      close: async () => {
        await client.end();
      },
    };
    return await measureRetention(ctx, SERVERS.postgres, target, sizing, `pg_total_relation_size of every table in the schema; partitions of ${sizing.partition.toLocaleString('en')} events`);
  } finally {
    await client.end().catch(() => undefined);
    await rw.stop();
    await dropSchema(schema);
  }
}

async function measureRetention(ctx: BenchContext, server: string, log: LogTarget, sizing: Sizing, how: string): Promise<Row> {
  const fmt = (x: number) => Math.round(x).toLocaleString('en');
  const mib = (b: number) => `${(b / 1024 ** 2).toFixed(1)} MiB`;
  try {
    const started = performance.now();
    let written = 0;
    let peak = 0;
    const writeUpTo = async (total: number) => {
      while (written < total) {
        const count = Math.min(CHUNK, total - written);
        await log.append(count);
        written += count;
        // Paced at RATE: the server's worker has its turns at the database between chunks, as under a live API's writes.
        const due = started + (written / RATE) * 1000;
        if (due > performance.now()) await sleep(due - performance.now());
        if (written % (CHUNK * 10) === 0) peak = Math.max(peak, await log.count());
      }
    };
    await writeUpTo(sizing.retain);
    const atRetain = await log.bytes();
    ctx.progress(`${server.padEnd(26)} retention: ${fmt(written)} events written, ${mib(atRetain)}`);
    await writeUpTo(sizing.writes);
    const writeSeconds = (performance.now() - started) / 1000;
    // The worker runs every second: wait for it to bring the log back within retention (and a partition).
    const settleFrom = performance.now();
    let kept = await log.count();
    while (kept > sizing.retain + sizing.partition && performance.now() - settleFrom < SETTLE_MS) {
      await sleep(250);
      kept = await log.count();
    }
    const atEnd = await log.bytes();
    const growth = atEnd / atRetain - 1;
    ctx.progress(`${server.padEnd(26)} retention: ${fmt(written)} events written, ${fmt(kept)} kept (peak ${fmt(peak)}), ${mib(atEnd)} (${(growth * 100).toFixed(1)}%)`);
    const measurement: Measurement = { rps: written / writeSeconds, p50: 0, p99: 0, requests: written, non2xx: 0, errors: 0, statusCodes: {}, seconds: writeSeconds, connections: 1 };
    const scaled = ctx.settings.quick ? ' (quick run: scaled down from 1M writes and a retention of 100k)' : '';
    const note =
      `${fmt(sizing.writes)} events appended in bulk (${fmt(CHUNK)} per statement, paced at ${fmt(RATE)}/s) with retention maxCount ${fmt(sizing.retain)}${scaled}; ` +
      `size ${mib(atRetain)} at ${fmt(sizing.retain)}, ${mib(atEnd)} after all (${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(1)}%), ${fmt(kept)} events kept, at most ${fmt(peak)} seen while writing; ${how}; req/s column = events appended/s`;
    return {
      group: GROUPS.retention.id,
      scenario: GROUPS.retention.label,
      server,
      measurement,
      note,
      figures: { bytesAtRetain: atRetain, bytesAtEnd: atEnd, growth, kept, peak, writes: sizing.writes, retain: sizing.retain },
    };
  } finally {
    await log.close();
  }
}

/** A time-ordered event id, as the server draws them (UUIDv7-shaped hex). */
function eventId(n: number): string {
  return `evt_${Date.now().toString(16).padStart(12, '0')}${n.toString(16).padStart(20, '0')}`;
}
