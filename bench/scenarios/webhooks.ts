import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { notRun, reason, runRow, seededDatabase, type BenchContext } from '../context.js';
import { GROUPS, SERVERS } from '../groups.js';
import type { Row } from '../load.js';
import type { RequestPlan } from '../load.js';
import { preflight } from '../requests.js';
import { startRestwell, withServer } from '../servers.js';

const SOURCE = 'bench';

/**
 * Verified Standard Webhooks ingestion (issue 6) on SQLite: `POST /webhooks/bench`, each delivery with
 * its own `webhook-id` and a fresh signature from the `standardwebhooks` package. Skipped (n/a) while
 * the route does not exist.
 */
export async function webhookRows(ctx: BenchContext): Promise<Row[]> {
  const server = SERVERS.restwell;
  const na = (why: string) => [notRun(GROUPS.webhooks.id, GROUPS.webhooks.label, server, why, 'post')];
  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  const extra = { webhooks: { sources: { [SOURCE]: { provider: 'standard-webhooks', verify: { secret }, actions: [] } } } };
  const db = await seededDatabase(ctx, 'webhooks', 0, { extra });
  try {
    return await withServer(startRestwell({ ...db, name: server }), async (rw) => {
      const plan = signedDeliveries(secret);
      const first = await preflight(rw.url, plan);
      if (first.status === 404 || first.status === 405) return na('n/a (not built)');
      return [await runRow(ctx, { group: GROUPS.webhooks.id, scenario: GROUPS.webhooks.label, server, ceiling: 'post', url: rw.url, plan, skipIfPreflightFails: true })];
    });
  } catch (err) {
    return na(`n/a (${reason(err)})`);
  }
}

/** Deliveries that all verify and none repeats (a repeated webhook-id is a de-duplicated redelivery). */
function signedDeliveries(secret: string): RequestPlan {
  const signer = new Webhook(secret);
  let n = 0;
  let body = '';
  let headers: Record<string, string> = {};
  const next = () => {
    n += 1;
    const id = `msg_bench_${process.pid}_${n}`;
    const now = new Date();
    body = JSON.stringify({ type: 'bench.ping', timestamp: now.toISOString(), data: { n } });
    headers = { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(now.getTime() / 1000)), 'webhook-signature': signer.sign(id, now, body) };
  };
  // autocannon asks for the headers first, then the body, of each request: sign once per request.
  return {
    method: 'POST',
    path: `/webhooks/${SOURCE}`,
    headers: () => {
      next();
      return { ...headers };
    },
    body: () => body,
  };
}
