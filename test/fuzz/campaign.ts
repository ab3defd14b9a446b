import type { FuzzContext } from './fuzz-context.js';
import { isSafe, reproduction, type FuzzRequest } from './fuzz-request.js';
import type { FuzzTarget } from './fuzz-target.js';
import { generate } from './generate.js';
import { judge } from './oracle.js';
import { StateProbe, unchanged, type StateChange } from './state-probe.js';
import { Transport, type Outcome } from './transport.js';

/** One problem found, with enough to replay it. */
export interface Finding {
  kind: string;
  detail: string;
  /** How to regenerate the request (`FUZZ_SEED` and the index), when it is one request. */
  seed?: number;
  index?: number;
  reproduction: string;
  /** Server log lines written meanwhile (stack traces of unhandled errors). */
  serverLog?: string;
  /** How many more requests failed the same way. */
  repeats: number;
}

/** What a run against one engine did and found. */
export interface CampaignReport {
  engine: string;
  seed: number;
  /** Generated requests, and rejected ones sent again to check they changed nothing. */
  sent: number;
  replayed: number;
  /** Status → count (`no-response`, `client-refused` for requests that got no status). */
  statuses: Record<string, number>;
  /** Rejected requests whose batch was checked to have left the database as it was. */
  rejectedChecked: number;
  findings: Finding[];
  crashed: boolean;
}

export interface CampaignOptions {
  seed: number;
  requests: number;
  /** Index of the first request (to replay one request of a seed). */
  first?: number;
  /** Requests in flight at once (also the batch size between state checks). */
  concurrency: number;
  /** Called every ~1000 requests with the running report. */
  progress?: (report: CampaignReport) => void;
}

interface Sent {
  req: FuzzRequest;
  index?: number;
  outcome: Outcome;
}

const touchesDocuments = (r: FuzzRequest) => /^\/(api-keys|oauth)/.test(r.path);
const rejected = (s: Sent) => s.outcome.kind === 'response' && s.outcome.status >= 400;
/** Must leave the database exactly as it was: reads, and rejected writes (except genuine webhook deliveries). */
const mustNotChange = (s: Sent) => isSafe(s.req) || (rejected(s) && !s.req.mayChangeWhenRejected);

/**
 * Sends `requests` generated requests to the target in batches of `concurrency`, judging every
 * answer, checking after each batch that the server still runs, and that a batch of only reads
 * and rejected writes changed nothing in the database. Rejected writes from mixed batches are sent
 * again, on their own, for the same check.
 */
export async function runCampaign(target: FuzzTarget, ctx: FuzzContext, options: CampaignOptions): Promise<CampaignReport> {
  const report: CampaignReport = { engine: target.engine, seed: options.seed, sent: 0, replayed: 0, statuses: {}, rejectedChecked: 0, findings: [], crashed: false };
  const transport = new Transport(target.base);
  const probe = new StateProbe(target.store, Object.keys(ctx.sources));
  const byKey = new Map<string, Finding>();
  const record = (key: string, make: () => Omit<Finding, 'repeats'>) => {
    const seen = byKey.get(key);
    if (seen) return void seen.repeats++;
    const finding = { ...make(), repeats: 0 };
    byKey.set(key, finding);
    report.findings.push(finding);
  };
  await probe.changes(true);
  let nextProgress = 1000;
  for (let start = 0; start < options.requests && !report.crashed; start += options.concurrency) {
    const indexes = Array.from({ length: Math.min(options.concurrency, options.requests - start) }, (_, i) => (options.first ?? 0) + start + i);
    const batch = indexes.map((index) => ({ index, req: generate(options.seed, index, ctx) }));
    const sent = await sendBatch(batch, false);
    report.sent += sent.length;
    if (report.crashed) break;
    if (batch.some(({ req }) => req.mayChangeWhenRejected)) await settleWebhooks(probe);
    if (!sent.every(mustNotChange)) {
      const again = sent.filter((s) => !isSafe(s.req) && rejected(s) && !s.req.mayChangeWhenRejected);
      if (again.length) report.replayed += (await sendBatch(again.map(({ req, index }) => ({ req, index })), true)).length;
    }
    if (report.sent >= nextProgress) {
      nextProgress += 1000;
      options.progress?.(report);
    }
  }
  return report;

  /** Sends a batch at once and judges it; a batch that must not have changed anything is checked. */
  async function sendBatch(batch: Array<{ req: FuzzRequest; index?: number }>, replay: boolean): Promise<Sent[]> {
    const documents = batch.some(({ req }) => touchesDocuments(req));
    if (documents) await probe.changes(true);
    const logStart = target.server.output().length;
    const sent: Sent[] = await Promise.all(batch.map(async ({ req, index }) => ({ req, index, outcome: await transport.send(req) })));
    const log = () => target.server.output().slice(logStart, logStart + 4000) || undefined;
    for (const s of sent) {
      const status = s.outcome.kind === 'response' ? String(s.outcome.status) : s.outcome.error.startsWith('client refused') ? 'client-refused' : 'no-response';
      if (!replay) report.statuses[status] = (report.statuses[status] ?? 0) + 1;
      const violation = judge(s.req, s.outcome);
      if (violation) {
        record(`${violation.kind} ${s.req.origin} ${violation.detail.replace(/\d+/g, 'N').slice(0, 80)}`, () => ({ ...violation, seed: options.seed, index: s.index, reproduction: reproduction(s.req), serverLog: violation.kind === '5xx' ? log() : undefined }));
      }
    }
    if (!alive()) {
      report.crashed = true;
      record('crash', () => ({ kind: 'crash', detail: `the server exited (${target.server.child.exitCode ?? target.server.child.signalCode}) during this batch`, reproduction: sent.map((s) => reproduction(s.req)).join('\n\n'), serverLog: log() }));
      return sent;
    }
    const change = await probe.changes(documents);
    if (sent.every(mustNotChange)) {
      if (!unchanged(change)) {
        const writes = sent.filter((s) => !isSafe(s.req));
        record(`state ${writes.map((s) => s.req.origin).sort().join('|')}`, () => ({ kind: 'rejected-request-changed-state', detail: describeChange(change), reproduction: writes.map((s) => `[${s.outcome.kind === 'response' ? s.outcome.status : 'no answer'}] ${reproduction(s.req)}`).join('\n\n') }));
      }
      report.rejectedChecked += sent.filter((s) => !isSafe(s.req)).length;
    }
    return sent;
  }

  function alive(): boolean {
    const child = target.server.child;
    return child.exitCode === null && child.signalCode === null;
  }
}

/** Waits (briefly) for the inbox worker to run the actions of accepted deliveries, then takes a new baseline. */
async function settleWebhooks(probe: StateProbe): Promise<void> {
  for (let i = 0; i < 100 && (await probe.busy()); i++) await new Promise((r) => setTimeout(r, 50));
  await probe.changes();
}

function describeChange(c: StateChange): string {
  return [...c.events.map((e) => `event ${e}`), ...c.deliveries.map((d) => `delivery ${d}`), ...c.documents].slice(0, 10).join('; ');
}
