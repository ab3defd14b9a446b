import { cpuUsPerRequest, measurePaired, median, type RequestPlan, type Row } from './load.js';
import type { ServerProcess } from './processes.js';
import type { BenchSettings } from './settings.js';

/** Rounds and seconds of the direct pairing: more and shorter than a row's, since it judges a difference of a few percent. */
export function logCostTiming(settings: BenchSettings): { rounds: number; seconds: number } {
  return settings.quick ? { rounds: 3, seconds: 2 } : { rounds: 7, seconds: 3 };
}

/**
 * What the request log costs a GET, measured directly: the server at default settings (`on`) against its
 * twin at LOG_LEVEL=warn (`off`), both up at once, in alternating rounds of two back-to-back windows
 * (see measurePaired). The ratio is the median of the rounds' req/s ratios (on / off), the CPU the median
 * of the rounds' differences in server CPU µs per request: two windows seconds apart, not two rows minutes
 * apart whose ratios to raw node:http each carry their own noise. Returns `row` (the "logging off" row)
 * with these figures added: `logCostRatio`, `logCostUs`, `logCostRounds`.
 */
export async function withLogCost(settings: BenchSettings, row: Row, on: ServerProcess, off: ServerProcess, plan: RequestPlan): Promise<Row> {
  if (!row.measurement) return row;
  const { rounds: count, seconds } = logCostTiming(settings);
  const paired = { ...settings, pairedRounds: count, pairedSeconds: seconds };
  const { rounds, ratio } = await measurePaired(on.url, plan, paired, on.child.pid, { url: off.url, pid: off.child.pid, plan });
  const us = (r: (typeof rounds)[number]['row']) => cpuUsPerRequest(r.cpu.server ?? Number.NaN, r.seconds, r.requests);
  const extra = median(rounds.map((r) => us(r.row) - us(r.partner)));
  const fmt = (n: number) => Math.round(n).toLocaleString('en');
  const cpu = Number.isFinite(extra) ? `, server CPU ${extra >= 0 ? '+' : ''}${extra.toFixed(1)} µs/request (median of the rounds' differences)` : '';
  const note = `request log on / off, both servers up, ${rounds.length} alternating ${seconds} s rounds: ${rounds.map((r) => `${fmt(r.row.rps)} / ${fmt(r.partner.rps)}`).join(', ')} req/s → ${ratio.toFixed(3)} (median)${cpu}`;
  return {
    ...row,
    figures: { ...row.figures, logCostRatio: ratio, logCostUs: extra, logCostRounds: rounds.length },
    note: row.note ? `${row.note}; ${note}` : note,
  };
}
