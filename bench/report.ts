import { GROUPS, SERVERS } from './groups.js';
import { hasFailures, isFlagged, type Row } from './load.js';
import type { TargetResult } from './targets.js';

const HEADER = ['Scenario', 'Server', 'req/s', 'p50 ms', 'p99 ms', 'x node:http', 'x json-server', 'non-2xx', 'errors', 'Notes'];

const groupOrder: string[] = Object.values(GROUPS).map((g) => g.id);
const serverOrder: string[] = Object.values(SERVERS);

/** Rows in table order: by scenario, then server (ceiling first, json-server, then Restwell variants). */
export function ordered(rows: Row[]): Row[] {
  const rank = (list: string[], v: string) => (list.includes(v) ? list.indexOf(v) : list.length);
  return [...rows].sort((a, b) => rank(groupOrder, a.group) - rank(groupOrder, b.group) || rank(serverOrder, a.server) - rank(serverOrder, b.server));
}

function ratio(row: Row, base: Row | undefined): string {
  // A paired row's ratio is to raw node:http in its own rounds, not to the ceiling row measured minutes apart.
  if (row.figures?.pairedRatio !== undefined && base?.server === SERVERS.raw) return `${row.figures.pairedRatio.toFixed(2)}x`;
  if (!row.measurement || !base?.measurement || base.measurement.rps === 0) return '—';
  return `${(row.measurement.rps / base.measurement.rps).toFixed(2)}x`;
}

function failures(row: Row): string {
  const codes = Object.entries(row.measurement?.statusCodes ?? {}).filter(([code]) => !code.startsWith('2'));
  const m = row.measurement;
  const parts = codes.map(([c, n]) => `${n} x ${c}`);
  if (m?.errors) parts.push(`${m.errors} connection errors/timeouts`);
  if (m?.requests === 0) parts.push('no request completed in the window');
  return parts.length ? `FLAGGED: ${parts.join(', ')}` : hasFailures(m) ? 'FLAGGED: failed requests' : '';
}

/** How busy wrk and the server were over the measured window (cores: 1.00 = one core all the time). */
function cpuNote(row: Row): string {
  const cpu = row.measurement?.cpu;
  if (!cpu || !Number.isFinite(cpu.generator)) return '';
  const server = cpu.server === undefined ? '' : `, server ${cpu.server.toFixed(2)}`;
  return `CPU cores: wrk ${cpu.generator.toFixed(2)}${server}`;
}

/** The table's cells, one array per row (figures as text). */
export function tableCells(rows: Row[]): string[][] {
  const ceilings = new Map(rows.filter((r) => r.server === SERVERS.raw && r.ceiling).map((r) => [r.ceiling, r]));
  return ordered(rows).map((row) => {
    const m = row.measurement;
    const js = rows.find((r) => r.group === row.group && r.server === SERVERS.jsonServer);
    const notes = [isFlagged(row) ? failures(row) || 'FLAGGED' : '', row.warning ?? '', row.note ?? '', cpuNote(row)].filter(Boolean).join('; ');
    return [
      row.scenario,
      (isFlagged(row) ? '⚠ ' : '') + row.server,
      m ? Math.round(m.rps).toLocaleString('en') : '—',
      m ? m.p50.toFixed(1) : '—',
      m ? m.p99.toFixed(1) : '—',
      ratio(row, row.ceiling ? ceilings.get(row.ceiling) : undefined),
      ratio(row, js),
      m ? String(m.non2xx) : '—',
      m ? String(m.errors) : '—',
      notes,
    ];
  });
}

/** The table as GitHub markdown. */
export function markdownTable(rows: Row[]): string {
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  const lines = [`| ${HEADER.join(' | ')} |`, `|${HEADER.map((_, i) => (i >= 2 && i <= 8 ? ' ---: ' : ' --- ')).join('|')}|`];
  for (const cells of tableCells(rows)) lines.push(`| ${cells.map(esc).join(' | ')} |`);
  return lines.join('\n');
}

/** The table as aligned plain text for the terminal (notes last, unpadded). */
export function textTable(rows: Row[]): string {
  const all = [HEADER, ...tableCells(rows)];
  const widths = HEADER.map((_, i) => Math.max(...all.map((r) => r[i].length)));
  return all
    .map((cells) => cells.map((c, i) => (i === cells.length - 1 ? c : i >= 2 && i <= 8 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  '))
    .join('\n');
}

/** The targets as markdown bullet lines. */
export function targetLines(targets: TargetResult[]): string[] {
  const mark = { met: 'MET', 'not met': 'NOT MET', 'n/a': 'n/a' } as const;
  return targets.flatMap((t) => [`- **${mark[t.status]}** — ${t.target}: ${t.detail}`, ...(t.why ?? []).map((line, i) => `  - ${i === 0 ? 'why: ' : ''}${line}`)]);
}
