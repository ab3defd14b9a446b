import assert from 'node:assert/strict';
import { test } from 'node:test';
import { breakdown, flameGraphSvg, keepFrom, moduleOf, type CpuProfile } from '../../bench/cpu-profile.js';

/** root → (idle), (program), read handler → writev; five samples 1 ms apart. */
function profile(): CpuProfile {
  const frame = (functionName: string, url = '', lineNumber = 0) => ({ functionName, url, lineNumber });
  return {
    nodes: [
      { id: 1, callFrame: frame('(root)'), children: [2, 3, 4] },
      { id: 2, callFrame: frame('(program)') },
      { id: 3, callFrame: frame('(idle)') },
      { id: 4, callFrame: frame('readRecord', 'file:///app/dist/resources/http/read.js', 9), children: [5] },
      { id: 5, callFrame: frame('writev') },
    ],
    samples: [4, 5, 5, 3, 2],
    timeDeltas: [1000, 1000, 1000, 1000, 1000],
    startTime: 0,
    endTime: 5000,
  };
}

test('busy samples are split by phase and by function; idle and (program) are not busy', () => {
  const b = breakdown(profile());
  assert.equal(b.samples, 5);
  assert.equal(b.busySamples, 3);
  assert.deepEqual(
    b.phases.map((p) => [p.name, Math.round(p.share * 3)]),
    [
      ['socket write (writev syscall)', 2],
      ['handler, negotiation, representation', 1],
    ],
  );
  assert.equal(b.selfTime[0].name, 'writev (native/vm):1');
  // Inclusive: the handler is on the stack of all three busy samples.
  assert.deepEqual(b.inclusiveTime[0], { name: 'readRecord restwell/resources/http/read:10', share: 1 });
});

test('keepFrom drops the samples before a time, so a profile covers only the load', () => {
  const p = profile();
  keepFrom(p, 3000);
  assert.deepEqual(p.samples, [5, 3, 2]);
  assert.equal(breakdown(p).busySamples, 1);
});

test('module names: packages, Restwell files and node internals', () => {
  assert.equal(moduleOf('file:///x/node_modules/@fastify/ajv-compiler/index.js'), '@fastify/ajv-compiler');
  assert.equal(moduleOf('file:///x/node_modules/pg/lib/client.js'), 'pg');
  assert.equal(moduleOf('file:///x/dist/store/sql-store.js'), 'restwell/store/sql-store');
  assert.equal(moduleOf('node:_http_server'), 'node:_http_server');
  assert.equal(moduleOf(''), '(native/vm)');
});

test('the flame graph draws every busy frame, with its share, and escapes names', () => {
  const svg = flameGraphSvg(profile(), 'a <title>');
  assert.match(svg, /^<svg /);
  assert.match(svg, /a &lt;title&gt;/);
  assert.match(svg, /<title>writev — 66\.7% \(2 samples\)<\/title>/);
  assert.match(svg, /<title>readRecord resources\/http\/read:10 — 100\.0% \(3 samples\)<\/title>/);
  assert.doesNotMatch(svg, /\(idle\)/);
});

test('auth claims the token checks a guard calls, not the rest of a request its callback lets through', () => {
  const frame = (functionName: string, url = '', lineNumber = 0) => ({ functionName, url, lineNumber });
  const fastify = 'file:///app/node_modules/fastify/lib/hooks.js';
  const p: CpuProfile = {
    nodes: [
      { id: 1, callFrame: frame('(root)'), children: [2] },
      { id: 2, callFrame: frame('hookRunner', fastify), children: [3] },
      { id: 3, callFrame: frame('guard', 'file:///app/dist/auth/http/guard.js', 30), children: [4, 6] },
      // The guard's own work: verifying a token.
      { id: 4, callFrame: frame('authenticate', 'file:///app/dist/auth/principal.js', 5), children: [5] },
      { id: 5, callFrame: frame('verify', 'file:///app/node_modules/jose/dist/verify.js', 1) },
      // The request, let through by the guard's `done`: Fastify runs the handler inside its frame.
      { id: 6, callFrame: frame('next', fastify), children: [7] },
      { id: 7, callFrame: frame('readRecord', 'file:///app/dist/resources/http/read.js', 9) },
    ],
    samples: [5, 4, 7, 7],
    timeDeltas: [1000, 1000, 1000, 1000],
    startTime: 0,
    endTime: 4000,
  };
  assert.deepEqual(
    breakdown(p).phases.map((s) => [s.name, s.share]),
    [
      ['auth (guard, token cache, rules)', 0.5],
      ['handler, negotiation, representation', 0.5],
    ],
  );
});
