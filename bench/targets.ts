import { GROUPS, SERVERS } from './groups.js';
import { isFlagged, type Row } from './load.js';

/** One target of the issues, judged on this run's rows. */
export interface TargetResult {
  target: string;
  status: 'met' | 'not met' | 'n/a';
  detail: string;
}

function find(rows: Row[], group: string, server: string): Row | undefined {
  return rows.find((r) => r.group === group && r.server === server);
}

/** The rows a target needs, or why they cannot be judged (missing, or flagged with failures). */
function usable(rows: Array<Row | undefined>): { ok: true } | { ok: false; status: TargetResult['status']; why: string } {
  for (const row of rows) {
    if (!row?.measurement) return { ok: false, status: 'n/a', why: `no figures for ${row ? `${row.server}: ${row.note}` : 'a needed row'}` };
    if (isFlagged(row)) return { ok: false, status: 'not met', why: `${row.server} / ${row.scenario} had failed requests or a bad response; its figures do not count` };
  }
  return { ok: true };
}

function ratioTarget(target: string, row: Row | undefined, base: Row | undefined, atLeast: number): TargetResult {
  const u = usable([row, base]);
  if (!u.ok) return { target, status: u.status, detail: u.why };
  const ratio = row!.measurement!.rps / base!.measurement!.rps;
  return { target, status: ratio >= atLeast ? 'met' : 'not met', detail: `${fmt(row!.measurement!.rps)} / ${fmt(base!.measurement!.rps)} req/s = ${ratio.toFixed(2)}x` };
}

const fmt = (n: number) => Math.round(n).toLocaleString('en');

/** Every target of issues 3-6 that this run's rows can judge; optional features' targets are n/a until built. */
export function judgeTargets(rows: Row[], connections: number): TargetResult[] {
  const rawGet = find(rows, GROUPS.getById.id, SERVERS.raw);
  const results: TargetResult[] = [
    ratioTarget('GET /characters/{id} >= 60% of raw node:http req/s', find(rows, GROUPS.getById.id, SERVERS.restwell), rawGet, 0.6),
    ratioTarget('POST /characters >= 10x json-server at 1k rows', find(rows, GROUPS.post1k.id, SERVERS.restwell), find(rows, GROUPS.post1k.id, SERVERS.jsonServer), 10),
  ];

  const posts = [GROUPS.post1k, GROUPS.post100k, GROUPS.post1m].map((g) => find(rows, g.id, SERVERS.restwell));
  const postsOk = usable(posts);
  const across = 'POST /characters within 20% across 1k / 100k / 1M rows';
  if (!postsOk.ok) results.push({ target: across, status: postsOk.status, detail: postsOk.why });
  else {
    const rps = posts.map((r) => r!.measurement!.rps);
    const spread = 1 - Math.min(...rps) / Math.max(...rps);
    results.push({ target: across, status: spread <= 0.2 ? 'met' : 'not met', detail: `${rps.map(fmt).join(' / ')} req/s: slowest is ${(spread * 100).toFixed(0)}% below fastest` });
  }

  const filtered = find(rows, GROUPS.filtered1m.id, SERVERS.restwell);
  const pageTarget = 'filtered sorted page of 20 over 1M rows: p99 < 20 ms at 32 connections';
  const pageOk = usable([filtered]);
  if (!pageOk.ok) results.push({ target: pageTarget, status: pageOk.status, detail: pageOk.why });
  else if (connections !== 32) results.push({ target: pageTarget, status: 'n/a', detail: `run used ${connections} connections, not 32` });
  else {
    const p99 = filtered!.measurement!.p99;
    results.push({ target: pageTarget, status: p99 < 20 ? 'met' : 'not met', detail: `p99 ${p99} ms` });
  }

  results.push(
    ratioTarget('GET /characters/{id} with an API key >= 50% of raw node:http', find(rows, GROUPS.getById.id, SERVERS.apiKey), rawGet, 0.5),
    ratioTarget('GET /characters/{id} with a JWT >= 50% of raw node:http', find(rows, GROUPS.getById.id, SERVERS.jwt), rawGet, 0.5),
  );
  const hooks = find(rows, GROUPS.webhooks.id, SERVERS.restwell);
  const hooksOk = usable([hooks]);
  const hooksTarget = 'verified Standard Webhooks ingestion >= 10k deliveries/s on SQLite';
  if (!hooksOk.ok) results.push({ target: hooksTarget, status: hooksOk.status, detail: hooksOk.why });
  else results.push({ target: hooksTarget, status: hooks!.measurement!.rps >= 10_000 ? 'met' : 'not met', detail: `${fmt(hooks!.measurement!.rps)} deliveries/s` });

  // Outbound delivery: one row carries both figures (req/s = deliveries/s of a burst, p99 = idle event→delivery).
  const outbound = find(rows, GROUPS.outbound.id, SERVERS.restwell);
  const outboundOk = usable([outbound]);
  const rateTarget = 'outbound webhook deliveries >= 5,000/s to a local receiver on SQLite';
  const latencyTarget = 'outbound webhooks: p99 event→delivery < 50 ms at idle on SQLite';
  if (!outboundOk.ok) results.push({ target: rateTarget, status: outboundOk.status, detail: outboundOk.why }, { target: latencyTarget, status: outboundOk.status, detail: outboundOk.why });
  else {
    const m = outbound!.measurement!;
    // What the dispatcher can send is measured on a backlog: in a burst, deliveries keep pace with
    // the writes, and on 2 cores the writes themselves (sharing the CPU) stay under 5,000/s.
    const backlog = outbound!.figures?.backlogDeliveriesPerSecond;
    const burst = `in a write burst deliveries kept pace with the writes: ${fmt(m.rps)}/s, first write to last delivery (the row's note has the writes/s)`;
    results.push(
      backlog === undefined
        ? { target: rateTarget, status: 'n/a', detail: `no backlog figure (the replay did not run); ${burst}` }
        : { target: rateTarget, status: backlog >= 5_000 ? 'met' : 'not met', detail: `${fmt(backlog)} deliveries/s working off a backlog (median of 3); ${burst}` },
      { target: latencyTarget, status: m.p99 < 50 ? 'met' : 'not met', detail: `p50 ${m.p50.toFixed(1)} ms, p99 ${m.p99.toFixed(1)} ms` },
    );
  }
  return results;
}
