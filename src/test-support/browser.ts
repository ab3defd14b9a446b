import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';

/** Debian's Chromium, which `.ci/run` installs; playwright-core downloads no browser of its own. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Where screenshots go (ignored by git), relative to the checkout the tests run in. */
const SCREENSHOT_DIR = resolve('test-output', 'screenshots');

/** Flags for a quiet, headless Chromium that reaches nothing but the server under test. */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Why the browser tests cannot run here, or undefined when they can. A missing Chromium skips them
 * on a developer machine (say why), but in CI (env `CI` set) it must fail: `.ci/run` installs it,
 * so its absence there is a broken environment, not a reason to pass silently.
 */
export function browserSkipReason(): string | undefined {
  if (existsSync(CHROMIUM_PATH)) return undefined;
  const reason = `no Chromium at ${CHROMIUM_PATH} (install Debian's chromium, or set CHROMIUM_PATH)`;
  if (process.env.CI) throw new Error(`browser tests cannot run in CI: ${reason}`);
  return reason;
}

/** A launched Chromium with its own throw-away profile; `close()` ends it. */
export interface TestBrowser {
  browser: Browser;
  /** A fresh context (own storage, no cookies shared), the given viewport width (default 1280). */
  newPage(options?: { width?: number; height?: number }): Promise<Page>;
  close(): Promise<void>;
}

/**
 * Launches one Chromium for a test file (reuse it across tests; contexts are cheap). Use after
 * `browserSkipReason()` said the tests can run.
 */
export async function launchBrowser(): Promise<TestBrowser> {
  const { chromium } = await import('playwright-core');
  // launch() gives Chromium a fresh temporary profile of its own (and removes it on close), so no
  // --user-data-dir here: Playwright refuses that flag outside launchPersistentContext.
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  const contexts: BrowserContext[] = [];
  return {
    browser,
    async newPage({ width = 1280, height = 800 } = {}) {
      const context = await browser.newContext({ viewport: { width, height } });
      contexts.push(context);
      // Long enough for a loaded machine, short enough that a missing element fails the test soon.
      context.setDefaultTimeout(10_000);
      return context.newPage();
    },
    async close() {
      for (const c of contexts) await c.close().catch(() => {});
      await browser.close();
    },
  };
}

/** The bit of node:test's TestContext that `screenshot` reports through. */
interface DiagnosticContext {
  diagnostic(message: string): void;
}

/**
 * Saves a full-page PNG as test-output/screenshots/<name>.png and reports its path in the test
 * output (as a diagnostic of `t` when given), so every page a test visits can be looked at.
 */
export async function screenshot(page: Page, name: string, t?: DiagnosticContext): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name.replace(/[^\w.-]+/g, '-')}.png`);
  await page.screenshot({ path, fullPage: true });
  if (t) t.diagnostic(`screenshot: ${path}`);
  return path;
}
