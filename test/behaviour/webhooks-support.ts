import { request } from 'undici';
import { PUBLIC_DEMO as DEMO_CONFIG } from '../../src/test-support/test-server.js';
import type { RestwellServer } from '../../src/app/server.js';
import type { TestEngine } from '../../src/test-support/engines.js';
import { listeningServer, testServer } from '../../src/test-support/test-server.js';
import { waitFor } from '../../src/test-support/wait-for.js';

/** Secrets of the extra test sources (the demo's come from TEST_DEMO_SECRETS). */
export const SECRETS = {
  standard: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  github: "It's a Secret to Everybody",
  stripe: 'whsec_test_secret_for_restwell',
  mailgun: 'key-mailgun-signing-key',
};

/** The demo config (mail, sms) plus one source per signing scheme. */
export const WEBHOOK_CONFIG = {
  ...DEMO_CONFIG,
  webhooks: {
    sources: {
      ...DEMO_CONFIG.webhooks.sources,
      events: { provider: 'standard-webhooks', verify: { secret: SECRETS.standard }, actions: [{ emit: true }] },
      github: { provider: 'github', verify: { secret: SECRETS.github } },
      stripe: { provider: 'stripe', verify: { secret: SECRETS.stripe } },
      mailgun: { provider: 'mailgun', verify: { secret: SECRETS.mailgun }, actions: [{ store: 'messages', map: { subject: 'subject', from: 'from', text: 'text' } }] },
      tiny: { provider: 'generic', verify: 'none', bodyLimit: 64, rateLimit: { limit: 3, window: '1m' } },
    },
  },
};

/** A server on a real socket (port 0), for requests whose signatures cover the URL. */
export function listening(engine: TestEngine, config: Record<string, unknown> = WEBHOOK_CONFIG): Promise<{ server: RestwellServer; base: string }> {
  return listeningServer(engine, config);
}

/** {@link listening}, plus an admin API key for the inbox routes. */
export async function listeningWithAdmin(engine: TestEngine, config?: Record<string, unknown>): Promise<{ server: RestwellServer; base: string; admin: string }> {
  const { server, base } = await listening(engine, config);
  return { server, base, admin: await adminKey(server) };
}

/** A response read whole. */
export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json(): any;
}

/** POSTs over the socket with undici. */
export async function post(url: string, headers: Record<string, string>, body: Buffer | string): Promise<Answer> {
  const res = await request(url, { method: 'POST', headers, body });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, text, json: () => JSON.parse(text) };
}

/** GETs over the socket with a bearer token. */
export async function get(url: string, token?: string): Promise<Answer> {
  const res = await request(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, text, json: () => JSON.parse(text) };
}

/** An admin API key (the inbox routes need the admin scope). */
export async function adminKey(server: RestwellServer): Promise<string> {
  return (await server.context.auth.apiKeys.create({ name: 'webhook-admin', scopes: ['*'] })).key;
}

/** Every delivery of a source's inbox (all pages). */
export async function inbox(base: string, source: string, token: string, query = ''): Promise<any[]> {
  const out: any[] = [];
  let url = `${base}/webhooks/${source}/events?limit=2${query}`;
  for (;;) {
    const page = (await get(url, token)).json();
    out.push(...page._embedded.deliveries);
    if (!page._links.next) return out;
    url = base + page._links.next.href;
  }
}

/** Polls until `check` holds (the worker runs after the 2xx): waits for the event, not a number of tries. */
export function eventually<T>(check: () => Promise<T | undefined | false>, what: string): Promise<T> {
  return waitFor(check, what, 50);
}
