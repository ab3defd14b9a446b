import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { ROOT, startServe, type ServeProcess } from '../support-process.js';

/** The first fenced block of `lang` in the README section with this heading. */
function block(heading: string, lang: string): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf(`\n${heading}\n`));
  const m = new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(section);
  assert.ok(m, `the README's ${heading} has a ${lang} block`);
  return m[1]!;
}

let server: ServeProcess;
const db = join(mkdtempSync(join(tmpdir(), 'rw-readme-')), 'demo.db');
before(async () => {
  server = await startServe(['--db', db]);
});
after(() => server.stop());

/**
 * Runs a README block as printed, in the checkout, with bash -euo pipefail. The only changes: the
 * port the test server listens on (`hooks send` is told it with `--url`, as the README says to for
 * another port) and, through DATABASE_URL, its database, which `keys create` and `hooks send` use too.
 */
function run(script: string): string {
  const port = `localhost:${server.port}`;
  const adapted = script.replaceAll('localhost:8080', port).replace(/hooks send (\w+)/g, `hooks send $1 --url http://${port}`);
  return execFileSync('bash', ['-euo', 'pipefail', '-c', adapted], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, DATABASE_URL: db } });
}

test('the README curl walkthrough works verbatim against the demo (real socket, real curl)', () => {
  const script = block('## Walkthrough with curl', 'sh');
  const expected = [...script.matchAll(/^# → (\d{3})/gm)].map((m) => Number(m[1]));
  assert.ok(expected.length >= 16, 'the walkthrough covers create, read, list, replace, patch, conditional requests, errors and delete');
  const output = run(script);
  const statuses = [...output.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
  assert.deepEqual(statuses, expected, output);
  assert.match(output, /^location: \/characters\/1\r?$/im);
  assert.match(output, /^content-type: application\/problem\+json/im);
  assert.match(output, /^allow: /im);
  assert.match(output, /^link: <\/characters\?sort=name&limit=10>; rel="first"/im);
});

test('the README Operations block runs as printed: probes, and metrics with a metrics:read key', () => {
  const out = run(block('## Operations', 'sh'));
  assert.match(out, /^\{"status":"ok"\}\n\{"status":"ok"\}\n/);
  assert.match(out, /^restwell_http_requests_total\{method="GET",route="\/healthz",status="200"\} 1$/m);
  assert.match(out, /^restwell_http_requests_total\{method="GET",route="\/readyz",status="200"\} 1$/m);
});

test('the README Receiving webhooks block runs as printed: the SMS reply, and the e-mail read back with messages:read', () => {
  try {
    const out = run(block('## Receiving webhooks', 'sh'));
    assert.match(out, /<Message>Apu: 555-7334<\/Message>/);
    assert.match(out, /"subject":"Hello from Springfield"/);
    assert.equal([...out.matchAll(/^HTTP 200 /gm)].length, 3, out);
  } finally {
    rmSync(join(ROOT, 'payload.json'), { force: true });
  }
});

test('the README Sending webhooks block runs as printed: an endpoint, a change, its delivery', () => {
  const out = run(block('## Sending webhooks', 'bash'));
  assert.match(out, /^HTTP\/1\.1 201 /m);
  assert.match(out, /"secret":"whsec_/);
  assert.match(out, /"eventType":"characters\.created"/);
});
