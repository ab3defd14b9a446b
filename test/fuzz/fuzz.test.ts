import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { engines } from '../../src/test-support/engines.js';
import { runCampaign } from './campaign.js';
import { buildContext, type FuzzContext } from './fuzz-context.js';
import { startTarget, type FuzzTarget } from './fuzz-target.js';
import { formatReport } from './report.js';

// The bounded, seeded part of the fuzz suite; `npm run fuzz` runs the long one.
const SEED = 20261123;
const REQUESTS = 2000;

for (const engine of engines) {
  describe(`fuzz: ${REQUESTS} hostile requests over a real socket (${engine.name})`, () => {
    let target: FuzzTarget;
    let ctx: FuzzContext;
    before(async () => {
      target = await startTarget(engine);
      ctx = await buildContext(target, SEED);
    });
    after(() => target.stop());

    test('no 5xx, no crash, every error a problem, rejected requests change nothing', { timeout: 600_000 }, async () => {
      const report = await runCampaign(target, ctx, { seed: SEED, requests: REQUESTS, concurrency: 8 });
      assert.equal(report.sent, REQUESTS);
      assert.ok(report.rejectedChecked > REQUESTS / 10, 'enough rejected writes were checked for side effects');
      assert.deepEqual(report.findings, [], formatReport(report));
    });
  });
}
