import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { ROOT, startServe, type ServeProcess } from '../support-process.js';

/** The README's curl walkthrough: the first ```sh block after the "Walkthrough with curl" heading. */
function walkthrough(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Walkthrough with curl'));
  const m = /```sh\n([\s\S]*?)```/.exec(section);
  assert.ok(m, 'the README has a walkthrough block');
  return m[1];
}

let server: ServeProcess;
const db = join(mkdtempSync(join(tmpdir(), 'rw-readme-')), 'demo.db');
before(async () => {
  server = await startServe(['--db', db]);
});
after(() => server.stop());

test('the README curl walkthrough works verbatim against the demo (real socket, real curl)', () => {
  const script = walkthrough();
  const expected = [...script.matchAll(/^# → (\d{3})/gm)].map((m) => Number(m[1]));
  assert.ok(expected.length >= 16, 'the walkthrough covers create, read, list, replace, patch, conditional requests, errors and delete');
  // The only changes: the port the test server listens on, and (through DATABASE_URL) its database,
  // which `keys create` in the block must use too. The block runs in the checkout, as a user runs it.
  const output = execFileSync('bash', ['-euo', 'pipefail', '-c', script.replaceAll('localhost:8080', `localhost:${server.port}`)], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, DATABASE_URL: db },
  });
  const statuses = [...output.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
  assert.deepEqual(statuses, expected, output);
  assert.match(output, /^location: \/characters\/1\r?$/im);
  assert.match(output, /^content-type: application\/problem\+json/im);
  assert.match(output, /^allow: /im);
  assert.match(output, /^link: <\/characters\?sort=name&limit=10>; rel="first"/im);
});
