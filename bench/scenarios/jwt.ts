import { notRun, reason, runRow, seededDatabase } from '../context.js';
import type { BenchContext } from '../settings.js';
import { GROUPS, SERVERS } from '../groups.js';
import type { Row } from '../load.js';
import { getById } from '../requests.js';
import { restwellCli, restwellSupports, startRestwell, withServer } from '../servers.js';
import type { ServerProcess } from '../processes.js';
import { withLogCost } from '../log-cost.js';
import { anonymousRefused, PROTECTED_CHARACTERS } from './auth-common.js';

/**
 * GET by id with a JWT access token (issue 5): registers a client with `restwell clients create`,
 * gets a token from `POST /oauth/token` (client credentials, HTTP Basic), and reads with it.
 */
export async function jwtRows(ctx: BenchContext): Promise<Row[]> {
  const server = SERVERS.jwt;
  const na = (why: string) => [notRun(GROUPS.getById.id, GROUPS.getById.label, server, why, 'get')];
  if (!(await restwellSupports(['clients', 'create']))) return na('n/a (not built)');
  const { small } = ctx.settings.sizes;
  // A fixed issuer, so the token stays valid when the server is started again on another port (to profile it).
  const db = await seededDatabase(ctx, 'jwt-1k', small, { resource: PROTECTED_CHARACTERS, extra: { auth: { rateLimit: false, issuer: 'https://restwell-bench.invalid' } } });
  const created = await restwellCli(['clients', 'create', '--name', 'bench', '--scopes', '*', '--db', db.db]);
  const client = parseClient(created.stdout);
  if (created.code !== 0 || !client) return na(`n/a (clients create printed no client id and secret: ${(created.stderr || created.stdout).trim().slice(0, 160)})`);
  // Beside it, the same with logging off (LOG_LEVEL=warn): what the request log costs (also measured directly, withLogCost).
  const quiet = SERVERS.jwtQuiet;
  const quietRow = (plan: ReturnType<typeof getById>, on: ServerProcess) =>
    withServer(startRestwell({ ...db, name: quiet, quietLogs: true }), async (rw) =>
      withLogCost(ctx.settings, await runRow(ctx, { group: GROUPS.getById.id, scenario: GROUPS.getById.label, server: quiet, ceiling: 'get', url: rw.url, pid: rw.child.pid, plan, skipIfPreflightFails: true, pair: true }), on, rw, plan),
    ).catch((err) => notRun(GROUPS.getById.id, GROUPS.getById.label, quiet, `n/a (${reason(err)})`, 'get'));
  try {
    return await withServer(startRestwell({ ...db, name: server }), async (rw) => {
      const refused = await anonymousRefused(rw.url);
      if (refused) return na(refused);
      const token = await accessToken(rw.url, client);
      if (typeof token !== 'string') return na(`n/a (POST /oauth/token: ${token.error})`);
      const plan = getById(small, { authorization: `Bearer ${token}` });
      const restart = (nodeArgs: string[]) => startRestwell({ ...db, name: server, nodeArgs });
      return [await runRow(ctx, { group: GROUPS.getById.id, scenario: GROUPS.getById.label, server, ceiling: 'get', url: rw.url, pid: rw.child.pid, plan, skipIfPreflightFails: true, restart }), await quietRow(plan, rw)];
    });
  } catch (err) {
    return na(`n/a (${reason(err)})`);
  }
}

/** Reads the client id and secret from `clients create` output: JSON, or `client_id: …` / `client secret = …` lines. */
export function parseClient(out: string): { id: string; secret: string } | undefined {
  try {
    const json = JSON.parse(out);
    const id = json.client_id ?? json.clientId ?? json.id;
    const secret = json.client_secret ?? json.clientSecret ?? json.secret;
    if (typeof id === 'string' && typeof secret === 'string') return { id, secret };
  } catch {
    // Not JSON: look for labelled lines.
  }
  // Restwell's client ids start rwc_ and secrets rws_ (src/auth/oauth-clients.ts); labels are the fallback.
  const id = /\brwc_[A-Za-z0-9_-]+/.exec(out)?.[0] ?? /client[ _-]?id\W+(\S+)/i.exec(out)?.[1];
  const secret = /\brws_[A-Za-z0-9_-]+/.exec(out)?.[0] ?? /client[ _-]?secret\W+(\S+)/i.exec(out)?.[1];
  return id && secret ? { id, secret } : undefined;
}

async function accessToken(url: string, client: { id: string; secret: string }): Promise<string | { error: string }> {
  const basic = Buffer.from(`${encodeURIComponent(client.id)}:${encodeURIComponent(client.secret)}`).toString('base64');
  const res = await fetch(`${url}/oauth/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  });
  const body = await res.text();
  try {
    const token = JSON.parse(body).access_token;
    if (res.ok && typeof token === 'string') return token;
  } catch {
    // Fall through to the error below.
  }
  return { error: `${res.status} ${body.replace(/\s+/g, ' ').slice(0, 140)}` };
}
