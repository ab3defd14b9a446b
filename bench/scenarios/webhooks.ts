import { createHmac, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { notRun, reason, runRow, seededDatabase } from '../context.js';
import type { BenchContext } from '../settings.js';
import { GROUPS, SERVERS } from '../groups.js';
import type { Row } from '../load.js';
import type { RequestPlan } from '../load.js';
import { preflight } from '../requests.js';
import { startRestwell, withServer } from '../servers.js';
import { ceilings } from '../wrk.js';

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
      const plan = signedDeliveries(secret, ctx.work);
      const first = await preflight(rw.url, plan);
      if (first.status === 404 || first.status === 405) return na('n/a (not built)');
      const restart = (nodeArgs: string[]) => startRestwell({ ...db, name: server, nodeArgs });
      return [await runRow(ctx, { group: GROUPS.webhooks.id, scenario: GROUPS.webhooks.label, server, ceiling: 'post', url: rw.url, pid: rw.child.pid, plan, skipIfPreflightFails: true, restart })];
    });
  } catch (err) {
    return na(`n/a (${reason(err)})`);
  }
}

/** Requests per second a signed file is sized for when nothing better is known (above any POST ceiling seen on 2 cores). */
const DEFAULT_BOUND = 100_000;

/**
 * Deliveries that all verify and none repeats (a repeated webhook-id is a de-duplicated redelivery).
 * The preflight's one request is signed here with the `standardwebhooks` package; wrk's are prepared
 * before each wrk run (signed with node:crypto, the first checked with the package) into one file per
 * wrk thread that bench/wrk/signed.lua reads line by line, each line once. How many: the warm-up's file
 * holds the raw node:http POST ceiling of this run (×1.2; 100k/s when the ceiling was not measured)
 * times its seconds — no server ingests faster than node:http answers a fixed body; the measured
 * window's holds 3× the rate the warm-up reached (at least 20k/s, at most that bound) times its
 * seconds. Should a thread still run out, the row is flagged (the script says so in its summary).
 */
function signedDeliveries(secret: string, work: string): RequestPlan {
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
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const path = `/webhooks/${SOURCE}`;
  return {
    method: 'POST',
    path,
    // fetch asks for the headers first, then the body, of the one preflight request: sign once.
    headers: () => {
      next();
      return { ...headers };
    },
    body: () => body,
    wrk: async (run) => {
      const bound = ceilings.post ? ceilings.post * 1.2 : DEFAULT_BOUND;
      const rate = run.warmup ? Math.min(bound, Math.max(3 * run.warmup.rps, 20_000)) : bound;
      const perThread = Math.ceil((rate * run.seconds) / run.threads);
      const file = join(work, `signed-${run.tag}`);
      const now = new Date();
      const ts = String(Math.floor(now.getTime() / 1000));
      for (let t = 1; t <= run.threads; t++) {
        const out = createWriteStream(`${file}.${t}`);
        let chunk: string[] = [];
        for (let i = 1; i <= perThread; i++) {
          const id = `msg_wrk_${run.tag}_${t}_${i}`;
          const payload = `{"type":"bench.ping","timestamp":"${now.toISOString()}","data":{"run":"${run.tag}","thread":${t},"n":${i}}}`;
          const signature = `v1,${createHmac('sha256', key).update(`${id}.${ts}.${payload}`).digest('base64')}`;
          if (t === 1 && i === 1) signer.verify(payload, { 'webhook-id': id, 'webhook-timestamp': ts, 'webhook-signature': signature });
          chunk.push(`${id}\t${ts}\t${signature}\t${payload}\n`);
          if (chunk.length === 10_000) {
            if (!out.write(chunk.join(''))) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
            chunk = [];
          }
        }
        out.end(chunk.join(''));
        await new Promise<void>((resolve, reject) => out.once('finish', () => resolve()).once('error', reject));
      }
      return { script: 'signed.lua', args: [path, file], files: Array.from({ length: run.threads }, (_, k) => `${file}.${k + 1}`) };
    },
  };
}
