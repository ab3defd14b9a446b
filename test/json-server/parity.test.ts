import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { engines } from '../../src/test-support/engines.js';
import { jsonServerParityDb } from '../../src/test-support/json-server-db.js';
import { GENERAL_DIFFERENCES, INTENTIONAL_DIFFERENCES, isRecordRead, isWholeUnsortedList, parityCorpus } from './parity-corpus.js';
import { brief, compareAnswers, firstDifference, keyOf, send, startJsonServer, startRestwell, undoOf, writeDiffs, type Answer, type Running } from './parity-support.js';

// The proof against the real thing: json-server 0.17.4 (its own code, in process) and Restwell with
// `compat: json-server` (the data file loaded through `restwell import`'s code) serve the same
// generated db.json; every request of the corpus goes to both (as a front-end on another origin
// sends it), writes in the same order, and their answers must agree on status, body (Restwell's
// version/createdAt/updatedAt aside), X-Total-Count, Link (rels, and each target's path and query:
// json-server's are absolute URLs of its own host), a created record's Location path and CORS (the
// page's origin allowed, at least json-server's headers exposed); but for the differences parity-corpus.ts lists with their reasons,
// request by request (INTENTIONAL_DIFFERENCES) or by kind (GENERAL_DIFFERENCES). A listed difference
// that no longer shows fails too, so the list stays true. PARITY_DIFFS_FILE=path writes what
// differs, request by request, to that file.

const db = jsonServerParityDb();
const dir = mkdtempSync(join(tmpdir(), 'restwell-parity-'));
const file = join(dir, 'db.json');
writeFileSync(file, JSON.stringify(db, null, 2));
after(() => rmSync(dir, { recursive: true, force: true }));

const corpus = parityCorpus(db);
const listed = new Map(INTENTIONAL_DIFFERENCES.map((d) => [`${d.request} | ${d.aspect}`, d]));
const report: string[] = [];

describe('json-server 0.17.4 parity', () => {
  test('the corpus is large enough and lists every difference once, for a request it sends', () => {
    assert.ok(corpus.length >= 100, `${corpus.length} requests`);
    assert.equal(listed.size, INTENTIONAL_DIFFERENCES.length, 'a difference listed twice');
    const keys = new Set(corpus.map(keyOf));
    for (const d of INTENTIONAL_DIFFERENCES) assert.ok(keys.has(d.request), `listed, but not in the corpus: ${d.request}`);
  });

  for (const engine of engines) {
    test(`Restwell (${engine.name}) answers the corpus as json-server does, but for the listed differences`, async (t) => {
      let jsonServer: Running | undefined;
      let restwell: Running | undefined;
      const unexpected: string[] = [];
      const seen = new Set<string>();
      let same = 0;
      let asListed = 0;
      let otherwise = 0;
      try {
        jsonServer = await startJsonServer(db);
        restwell = await startRestwell(engine, join(dir, engine.name), file);
        for (const step of corpus) {
          const [js, rw] = await Promise.all([send(jsonServer.base, step), send(restwell.base, step)]);
          let listedHere = 0;
          let otherHere = 0;
          for (const d of compareAnswers(js, rw, { recordRead: isRecordRead(step, db), stringIdOrder: isWholeUnsortedList(step) })) {
            const key = `${keyOf(step)} | ${d.aspect}`;
            if (d.aspect === 'body' && js.status >= 400 && rw.status >= 400) continue; // GENERAL_DIFFERENCES[0]
            if (listed.has(key)) {
              seen.add(key);
              listedHere++;
              continue;
            }
            otherHere++;
            const where = d.aspect === 'body' ? `\n    first difference (json-server vs restwell): ${firstDifference(d.jsonServer, d.restwell)}` : '';
            unexpected.push(`${key} (json-server ${js.status}, restwell ${rw.status})${where}\n    json-server: ${brief(d.jsonServer)}\n    restwell:    ${brief(d.restwell)}`);
          }
          if (otherHere) otherwise++;
          else if (listedHere) asListed++;
          else same++;
          const undo = (answer: Answer) => (step.undoCreate ? [undoOf(step, answer)].filter((u) => u !== undefined) : []);
          for (const [name, base, syncs] of [['Restwell', restwell.base, [...undo(rw), ...(step.thenOnRestwell ?? [])]], ['json-server', jsonServer.base, [...undo(js), ...(step.thenOnJsonServer ?? [])]]] as const) {
            for (const sync of syncs) {
              const answer = await send(base, sync);
              if (answer.status >= 400) unexpected.push(`${keyOf(sync)} (sent to ${name} alone, after ${keyOf(step)}) | status\n    ${name}: ${answer.status} ${brief(answer.body)}`);
            }
          }
        }
      } finally {
        await jsonServer?.close();
        await restwell?.close();
      }
      const stale = [...listed.keys()].filter((k) => !seen.has(k));
      const summary = `${engine.name}: ${corpus.length} requests; ${same} answered alike (general differences aside), ${asListed} differ only as listed, ${otherwise} differ otherwise; ${stale.length} listed difference(s) no longer seen`;
      t.diagnostic(summary);
      report.push(`== ${summary}\n`, ...unexpected.map((u) => `${u}\n`), ...stale.map((s) => `listed, but this difference did not show (the answers agree on it now, or differ in status instead): ${s}\n`));
      if (process.env.PARITY_DIFFS_FILE) writeDiffs(process.env.PARITY_DIFFS_FILE, `${new Date().toISOString()}: json-server 0.17.4 vs Restwell (compat: json-server), test/json-server/parity.test.ts.\nEach entry: request | aspect (statuses), where the bodies first differ, then both answers (Restwell's version/createdAt/updatedAt removed).\n${report.join('')}`);
      assert.deepEqual(unexpected, [], `differences not listed in INTENTIONAL_DIFFERENCES:\n${unexpected.join('\n')}`);
      assert.deepEqual(stale, [], 'listed differences that no longer show');
    });
  }
});
