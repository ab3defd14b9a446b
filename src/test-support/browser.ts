import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, ConsoleMessage, Page } from 'playwright-core';

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
      // A cap on waiting for an element, not a pause: generous, because CI runs two test files at once
      // beside this browser on two cores, and a missing element still fails the test.
      context.setDefaultTimeout(30_000);
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

/** One axe-core finding of impact serious or critical, short enough to read in a failed assertion. */
export interface AxeFinding {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

let axeSource: string | undefined;

/**
 * Whether a console message is axe-core's own doing: while it measures, axe applies inline styles,
 * which a strict CSP (`style-src 'self'`) refuses and reports as errors. Those reports come late (after
 * the audit has answered) but carry no script URL, as axe runs through the DevTools protocol; any
 * violation of the page's own code names the script or the document it came from, so it still counts.
 */
export function isAxeNoise(message: ConsoleMessage): boolean {
  return /Applying inline style violates/.test(message.text()) && !message.location().url;
}

/**
 * Runs axe-core (WCAG 2.x A/AA rules) on the page as it is now and returns its serious and critical
 * findings. The script is evaluated through the DevTools protocol, so the console's CSP (no inline
 * script) does not have to be loosened for the check.
 */
export async function axeFindings(page: Page): Promise<AxeFinding[]> {
  if (!axeSource) {
    axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  }
  // Strings, not functions: this file is compiled without the DOM's types.
  if (!(await page.evaluate('typeof axe === "object"'))) await page.evaluate(axeSource);
  const violations: AxeFinding[] = await page.evaluate(`axe
    .run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } })
    .then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact || '', help: v.help, targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) })))`);
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/**
 * The check every console screen gets: axe-core finds nothing serious or critical in the light and
 * in the dark scheme, and each scheme is saved as test-output/screenshots/<name>-light|dark.png.
 * Leaves the page in the light scheme.
 */
export async function checkScreen(page: Page, name: string, t?: DiagnosticContext): Promise<void> {
  for (const colorScheme of ['dark', 'light'] as const) {
    await page.emulateMedia({ colorScheme });
    const findings = await axeFindings(page);
    assert.deepEqual(findings, [], `${name} (${colorScheme}): axe-core found serious or critical violations`);
    await screenshot(page, `${name}-${colorScheme}`, t);
  }
}
