import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT } from './support-process.js';

// A user's clone has no sibling folders: nothing that runs or tests may reach outside the checkout.
test('no source, test, bench or CI file reads a folder beside the checkout', () => {
  const tracked = execFileSync('git', ['ls-files', 'src', 'test', 'bench', 'scripts', '.ci', 'bin'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
  const sibling = new RegExp(['\\.\\./', 'shared', '/'].join(''));
  const offenders = tracked.filter((file) => !file.startsWith('test/fixtures/') && sibling.test(readFileSync(join(ROOT, file), 'utf8')));
  assert.deepEqual(offenders, []);
});

// A reader has only the repository: a comment that points at a design document, a tracker issue
// or a planning note outside it explains nothing. Say the reason in the comment instead.
test('no comment cites a document that is not in the repository', () => {
  const tracked = execFileSync('git', ['ls-files', 'src', 'test', 'bench', 'scripts', '.ci', 'bin', 'docs', 'examples'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
  const outside = new RegExp(['DESIGN(\\.md| §)', 'DEVELOPERS\\.md', '\\b[Ii]ssue #\\d'].join('|'));
  const offenders = tracked.filter((file) => !file.startsWith('test/fixtures/') && file !== 'test/self-contained.test.ts' && outside.test(readFileSync(join(ROOT, file), 'utf8')));
  assert.deepEqual(offenders, []);
});

test('the signature vectors the verifier tests use are vendored with their sources named', () => {
  const vectors = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/webhook-signatures.json'), 'utf8'));
  for (const [name, entry] of Object.entries(vectors)) {
    if (name.startsWith('_')) continue;
    assert.equal(typeof (entry as { source?: unknown }).source, 'string', `${name} names its source`);
  }
});
