import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { RestwellServer } from '../../src/app/server.js';
import { DEMO_CONFIG } from '../../src/config/defaults.js';
import { isAxeNoise } from '../../src/test-support/browser.js';
import { listeningServer } from '../../src/test-support/test-server.js';

/**
 * The demo with its real access rules (so signing in matters), messages with a unique subject (so a
 * delivery can fail and be reprocessed), and `quests`, which has one field of every widget kind.
 */
export const CONSOLE_CONFIG = {
  ...DEMO_CONFIG,
  resources: {
    ...DEMO_CONFIG.resources,
    messages: { ...DEMO_CONFIG.resources.messages, fields: { ...DEMO_CONFIG.resources.messages.fields, subject: { type: 'string', unique: true } } },
    quests: {
      description: 'Quests, each for a hero',
      fields: {
        title: { type: 'string', required: true, maxLength: 100 },
        status: { type: 'enum', values: ['open', 'done'], default: 'open' },
        hero: { type: 'reference', to: 'characters' },
        dueAt: { type: 'datetime' },
        reward: { type: 'integer', minimum: 0 },
        secret: { type: 'boolean' },
        details: { type: 'json' },
      },
      access: { read: 'public', write: ['quests:write'] },
    },
  },
  // Outbound deliveries may reach the test's own receiver on loopback; a failure waits an hour, so
  // only the console's "Redeliver now" sends it again.
  webhooks: { ...DEMO_CONFIG.webhooks, outbound: { allowNetworks: ['127.0.0.1'], retrySchedule: ['1h'], pollInterval: '100ms', connectTimeout: '1s', timeout: '2s' } },
};

/** A server of {@link CONSOLE_CONFIG} on a real socket (port 0), with an admin API key. */
export async function consoleServer(): Promise<{ server: RestwellServer; base: string; adminKey: string; api: (method: string, url: string, body?: unknown, headers?: Record<string, string>) => Promise<{ status: number; headers: Headers; json: any }> }> {
  const { server, base } = await listeningServer(undefined, CONSOLE_CONFIG);
  const adminKey = (await server.context.auth.apiKeys.create({ name: 'console-admin', scopes: ['*'] })).key;
  const api = async (method: string, url: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(base + url, {
      method,
      headers: { authorization: `Bearer ${adminKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : undefined };
  };
  return { server, base, adminKey, api };
}

/** Fails on any script error or CSP violation the page reports, so a broken module never passes quietly. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/status of (401|403|404|409|412|422)/.test(m.text()) && !isAxeNoise(m)) errors.push(`console: ${m.text()}`);
  });
  return errors;
}

/** Signs in by pasting an API key, as a user does. */
export async function signInWithKey(page: Page, base: string, key: string): Promise<void> {
  await page.goto(`${base}/_/#/signin`);
  await page.getByLabel('API key', { exact: true }).fill(key);
  await page.getByRole('button', { name: 'Sign in with the key' }).click();
  await page.locator('#session .who', { hasText: 'Signed in' }).waitFor();
}

/** The page does not scroll sideways (tables scroll inside their own box). */
export async function assertNoHorizontalOverflow(page: Page, what: string): Promise<void> {
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
  assert.ok(scroll <= width, `${what}: the page is ${scroll} px wide in a ${width} px window`);
}
