import { readFileSync } from 'node:fs';

/**
 * Restwell's version, from its package.json: read at run time, one folder above the CLI's own
 * folder both in src/ (run through tsx) and in dist/ (the built package), so it never goes stale.
 */
export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
  return pkg.version ?? 'unknown';
}
