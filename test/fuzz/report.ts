import type { CampaignReport } from './campaign.js';

/** A summary a person reads: requests sent, statuses, and each finding with its reproduction. */
export function formatReport(r: CampaignReport): string {
  const statuses = Object.entries(r.statuses).sort(([a], [b]) => a.localeCompare(b)).map(([s, n]) => `${s}: ${n}`).join(', ');
  const fivexx = Object.entries(r.statuses).filter(([s]) => /^5\d\d$/.test(s)).map(([s, n]) => `${s}×${n}`).join(', ') || 'none';
  const lines = [
    `engine ${r.engine}, seed ${r.seed}: ${r.sent} requests sent (+${r.replayed} rejected writes replayed to check they change nothing)${r.crashed ? ', SERVER CRASHED' : ''}`,
    `  statuses: ${statuses}`,
    `  5xx answers: ${fivexx} (501 is expected only for method tokens the server does not implement)`,
    `  rejected writes checked to leave the database unchanged: ${r.rejectedChecked}`,
    `  findings: ${r.findings.length}`,
  ];
  for (const f of r.findings) {
    lines.push('', `- ${f.kind}: ${f.detail}${f.repeats ? ` (and ${f.repeats} more like it)` : ''}`);
    if (f.index !== undefined) lines.push(`  replay: FUZZ_SEED=${f.seed} FUZZ_ONLY=${f.index} npm run fuzz`);
    lines.push(...f.reproduction.split('\n').map((l) => `  ${l}`));
    if (f.serverLog) lines.push('  server log:', ...f.serverLog.split('\n').map((l) => `    ${l}`));
  }
  return lines.join('\n');
}
