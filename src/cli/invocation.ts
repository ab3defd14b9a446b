import { relative } from 'node:path';

/**
 * How to run this CLI again from the current directory, for commands printed at start-up:
 * `node bin/restwell.js` in a checkout (where `npx restwell` would look for the package on the
 * registry), `npx restwell` when it runs as an installed package.
 */
export function cliCommand(script = process.argv[1] ?? ''): string {
  const rel = relative(process.cwd(), script);
  if (!rel || rel.startsWith('..') || rel.includes('node_modules')) return 'npx restwell';
  return `node ${rel.endsWith('.ts') ? '--import tsx ' : ''}${rel}`;
}
