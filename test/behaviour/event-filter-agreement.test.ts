// The in-memory matcher of event filters (core/event-filter.ts) against the list's SQL, on random
// records and random conditions, on every engine: a stream or an endpoint filter selects exactly
// the records a list with the same conditions returns.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RestwellServer } from '../../src/app/server.js';
import { matchesCondition } from '../../src/core/event-filter.js';
import { parseCondition } from '../../src/core/field-condition.js';
import { engines, testServer } from '../../src/test-support/test-server.js';

const FIELDS = {
  name: { type: 'string' },
  n: { type: 'integer' },
  x: { type: 'number' },
  flag: { type: 'boolean' },
  at: { type: 'datetime' },
  kind: { type: 'enum', values: ['a', 'B', 'ç'] },
};
const CONFIG = { resources: { things: { fields: FIELDS, access: { read: 'public', write: 'public' } } } };

/** A seeded generator, so a failure is reproducible. */
function random(seed: number) {
  let s = seed >>> 0;
  const next = () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  return { next, pick };
}

const LETTERS = ['a', 'A', 'b', 'é', 'É', 'ß', 'σ', 'ς', 'Σ', '%', '_', '\\', ' ', '😀', '\uffef', 'z'];

for (const engine of engines) {
  describe(`event filters agree with list filters (${engine.name})`, () => {
    let server: RestwellServer;
    let records: Array<Record<string, unknown>> = [];
    const r = random(24);
    const text = (max = 4) => Array.from({ length: 1 + Math.floor(r.next() * max) }, () => r.pick(LETTERS)).join('');
    const maybe = <T>(v: () => T): T | null => (r.next() < 0.2 ? null : v());

    before(async () => {
      server = await testServer(engine, CONFIG);
      for (let i = 0; i < 80; i++) {
        const body = {
          name: maybe(() => text()),
          n: maybe(() => Math.floor(r.next() * 10) - 5),
          x: maybe(() => Math.round(r.next() * 100) / 10 - 5),
          flag: maybe(() => r.next() < 0.5),
          at: maybe(() => new Date(Date.UTC(2026, 0, 1 + Math.floor(r.next() * 5))).toISOString()),
          kind: maybe(() => r.pick(FIELDS.kind.values)),
        };
        const res = await server.app.inject({ method: 'POST', url: '/things', headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) });
        assert.equal(res.statusCode, 201, res.body);
      }
      records = (await server.app.inject({ method: 'GET', url: '/things?limit=100' })).json()._embedded.things;
      assert.equal(records.length, 80);
    });
    after(() => server.close());

    test('every operator, on every field type, selects the records the list returns', async () => {
      const resource = server.context.resources.get('things')!;
      const ops: Record<string, string[]> = {
        name: ['eq', 'ne', 'lt', 'gte', 'in', 'contains', 'startsWith', 'icontains', 'istartsWith'],
        n: ['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'in'],
        x: ['eq', 'ne', 'lt', 'gt', 'in'],
        flag: ['eq', 'ne', 'lt', 'gt'],
        at: ['eq', 'ne', 'lt', 'gte', 'in'],
        kind: ['eq', 'ne', 'gt', 'in', 'contains', 'istartsWith'],
        id: ['eq', 'lt', 'gt', 'in'],
      };
      const value = (field: string): string => {
        // Values taken from the records half the time, so conditions hit as well as miss.
        const from = r.pick(records)[field];
        if (from !== null && from !== undefined && r.next() < 0.5) return field === 'name' ? [...String(from)].slice(0, 1 + Math.floor(r.next() * 2)).join('') : String(from);
        switch (field) {
          case 'name': return text(2);
          case 'n': case 'id': return String(Math.floor(r.next() * 12) - 5 + (field === 'id' ? 40 : 0));
          case 'x': return String(Math.round(r.next() * 100) / 10 - 5);
          case 'flag': return String(r.next() < 0.5);
          case 'at': return new Date(Date.UTC(2026, 0, 1 + Math.floor(r.next() * 6))).toISOString();
          default: return r.pick(['a', 'B', 'ç', 'A', 'Ç', 'b']);
        }
      };
      let checked = 0;
      for (const [field, list] of Object.entries(ops)) {
        for (const op of list) {
          for (let i = 0; i < 6; i++) {
            let v = op === 'in' ? [value(field), value(field)].join(',') : value(field);
            if (field === 'kind' && (op === 'eq' || op === 'ne' || op === 'gt' || op === 'in')) v = v.split(',').map((k) => (FIELDS.kind.values.includes(k) ? k : 'a')).join(',');
            if (op === 'in' && field === 'name' && v.includes(',')) continue;
            const key = `${field}[${op}]`;
            const condition = parseCondition(resource, field, op, v, key, () => 'integer');
            const res = await server.app.inject({ method: 'GET', url: `/things?${encodeURIComponent(key)}=${encodeURIComponent(v)}&limit=100` });
            assert.equal(res.statusCode, 200, `${key}=${v}: ${res.body}`);
            const fromSql = res.json()._embedded.things.map((t: any) => t.id).sort((a: number, b: number) => a - b);
            const inMemory = records.filter((rec) => matchesCondition(condition, rec[field])).map((t) => t.id);
            assert.deepEqual(inMemory, fromSql, `${key}=${JSON.stringify(v)}`);
            checked++;
          }
        }
      }
      assert.ok(checked > 200);
    });
  });
}
