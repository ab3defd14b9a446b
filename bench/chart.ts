import { GROUPS, SERVERS } from './groups.js';
import { isFlagged, type Row } from './load.js';
import { ordered } from './report.js';

const COLORS: Record<string, string> = {
  [SERVERS.raw]: '#9e9e9e',
  [SERVERS.jsonServer]: '#e0883a',
  [SERVERS.restwell]: '#2f6fb3',
  [SERVERS.postgres]: '#3f9c6b',
  [SERVERS.workers]: '#6a4fb3',
  [SERVERS.apiKey]: '#2f9fb3',
  [SERVERS.jwt]: '#b34f8c',
};

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * A dependency-free SVG: per scenario, one horizontal bar of req/s per server, on one linear scale.
 * Rows without figures are listed with their reason; flagged rows are outlined in red.
 */
export function chartSvg(rows: Row[], title: string): string {
  const width = 1000;
  const labelWidth = 220;
  const barMax = width - labelWidth - 150;
  const barHeight = 16;
  const max = Math.max(1, ...rows.map((r) => r.measurement?.rps ?? 0));
  const parts: string[] = [];
  let y = 44;
  const groups = Object.values(GROUPS).filter((g) => rows.some((r) => r.group === g.id));
  for (const group of groups) {
    parts.push(`<text x="10" y="${y}" font-weight="bold">${esc(group.label)}</text>`);
    y += 8;
    for (const row of ordered(rows).filter((r) => r.group === group.id)) {
      const m = row.measurement;
      parts.push(`<text x="${labelWidth - 8}" y="${y + 12}" text-anchor="end">${esc(row.server)}</text>`);
      if (m) {
        const w = Math.max(1, (m.rps / max) * barMax);
        const flagged = isFlagged(row);
        const stroke = flagged ? ' stroke="#d32f2f" stroke-width="2"' : '';
        parts.push(`<rect x="${labelWidth}" y="${y}" width="${w.toFixed(1)}" height="${barHeight}" fill="${COLORS[row.server] ?? '#607d8b'}"${stroke}/>`);
        const text = `${Math.round(m.rps).toLocaleString('en')} req/s · p99 ${m.p99} ms${flagged ? ' ⚠ failures' : ''}`;
        parts.push(`<text x="${(labelWidth + w + 6).toFixed(1)}" y="${y + 12}">${esc(text)}</text>`);
      } else {
        parts.push(`<text x="${labelWidth}" y="${y + 12}" fill="#777">${esc((row.note ?? 'not run').slice(0, 110))}</text>`);
      }
      y += barHeight + 6;
    }
    y += 16;
  }
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${y}" viewBox="0 0 ${width} ${y}" font-family="sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="10" y="22" font-size="15" font-weight="bold">${esc(title)}</text>`,
    ...parts,
    '</svg>',
    '',
  ].join('\n');
}
