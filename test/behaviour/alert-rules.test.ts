import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parse } from 'yaml';
import type { RestwellServer } from '../../src/app/server.js';
import { parseExposition } from '../../src/test-support/prometheus-text.js';
import { engines, PUBLIC_DEMO, testServer } from '../../src/test-support/test-server.js';
import { ROOT } from '../support-process.js';

const DIR = join(ROOT, 'examples', 'prometheus');
const RULES = join(DIR, 'alerts.yml');
const RULE_TESTS = join(DIR, 'alerts.test.yml');

/** The one name the rules may use that a Restwell scrape does not show: `up`, which Prometheus itself writes for every target. */
const EXTERNAL_NAMES = new Set(['up']);
/** PromQL's words that look like names. */
const KEYWORDS = new Set(['and', 'or', 'unless', 'bool', 'by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'offset', 'inf', 'nan']);
/** A Prometheus duration: units from years down to milliseconds, each at most once and in order. */
const DURATION = /^(?=\d)(\d+y)?(\d+w)?(\d+d)?(\d+h)?(\d+m)?(\d+s)?(\d+ms)?$/;

interface Rule {
  alert?: string;
  record?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

/** The metric names an expression selects: words outside strings, label matchers and ranges that call nothing and are no keyword. */
function metricNames(expr: string): Set<string> {
  const bare = expr
    .replace(/#.*$/gm, ' ')
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, ' ')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\boffset\s+\S+/g, ' ');
  const names = new Set<string>();
  for (const m of bare.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)) {
    const before = bare[m.index! - 1] ?? ' ';
    if (/[0-9.]/.test(before)) continue; // the exponent of a number (1e9)
    if (bare.slice(m.index! + m[0].length).trimStart().startsWith('(')) continue; // a function or an aggregation
    if (KEYWORDS.has(m[0].toLowerCase())) continue;
    names.add(m[0]);
  }
  return names;
}

/** The promtool to run: $PROMTOOL, else one on the PATH; undefined when there is none. */
function findPromtool(): string | undefined {
  const candidate = process.env.PROMTOOL || 'promtool';
  return spawnSync(candidate, ['--version'], { encoding: 'utf8' }).status === 0 ? candidate : undefined;
}

describe('examples/prometheus/alerts.yml', () => {
  const doc = parse(readFileSync(RULES, 'utf8')) as { groups: Array<{ name: string; rules: Rule[] }> };
  const rules = doc.groups.flatMap((g) => g.rules);
  let server: RestwellServer;
  let scraped: Set<string>;

  before(async () => {
    // A webhook source, so the per-source gauges have series; a request, so the HTTP series exist.
    const config = { ...PUBLIC_DEMO, server: { metrics: 'public' }, webhooks: { sources: { plain: { provider: 'generic', verify: 'none' } } } };
    server = await testServer(engines[0], config);
    assert.equal((await server.app.inject({ method: 'GET', url: '/characters' })).statusCode, 200);
    const m = parseExposition((await server.app.inject({ method: 'GET', url: '/metrics' })).body);
    scraped = new Set([...m.samples.map((s) => s.name), ...m.types.keys()]);
  });
  after(() => server.close());

  test('every group is named and every rule is a well-formed alert: a unique name, an expression, a valid for:, a severity, a summary and a description', () => {
    assert.ok(doc.groups.length > 0);
    const names = new Set<string>();
    for (const group of doc.groups) {
      assert.match(group.name, /^restwell-[a-z-]+$/);
      assert.ok(Array.isArray(group.rules) && group.rules.length > 0, group.name);
      for (const rule of group.rules) {
        const name = rule.alert ?? '(unnamed)';
        assert.match(name, /^Restwell[A-Z][A-Za-z0-9]*$/, 'alerts are named RestwellSomething');
        assert.ok(!names.has(name), `${name} is defined twice`);
        names.add(name);
        assert.equal(typeof rule.expr, 'string', name);
        assert.ok(rule.expr.trim(), name);
        assert.deepEqual(Object.keys(rule).filter((k) => !['alert', 'expr', 'for', 'labels', 'annotations', 'keep_firing_for'].includes(k)), [], `${name} has unknown keys`);
        assert.match(rule.for ?? '', DURATION, `${name}: for: ${rule.for} is not a Prometheus duration`);
        assert.ok(['critical', 'warning', 'info'].includes(rule.labels?.severity ?? ''), `${name}: severity`);
        for (const key of ['summary', 'description']) assert.ok((rule.annotations?.[key] ?? '').trim().length > 10, `${name}: annotation ${key}`);
        // Templates reach only what the alert has: its labels and its value.
        for (const [key, text] of Object.entries(rule.annotations ?? {})) {
          for (const t of text.matchAll(/\{\{\s*\$labels\.([a-zA-Z_]+)/g)) assert.ok(rule.expr.includes(t[1]!) || t[1] === 'instance' || t[1] === 'job', `${name}: annotation ${key} names label ${t[1]}, which its expression may drop`);
        }
      }
    }
  });

  test('every metric an expression uses is one Restwell exposes (from a live scrape) or one of the few named elsewhere', () => {
    const used = new Map<string, string[]>();
    for (const rule of rules) {
      const names = metricNames(rule.expr);
      assert.ok(names.size > 0, `${rule.alert}: no metric found in its expression`);
      for (const n of names) used.set(n, [...(used.get(n) ?? []), rule.alert!]);
    }
    // The extractor itself, on what it must and must not take for a metric.
    assert.deepEqual([...metricNames('sum by (job, le) (rate(a_total{x="y{z}"}[5m])) > 1e9 and on (job) b offset 10m unless bool c')], ['a_total', 'b', 'c']);
    const unknown = [...used].filter(([n]) => !scraped.has(n) && !EXTERNAL_NAMES.has(n));
    assert.deepEqual(unknown, [], 'metrics no scrape shows (a typo, or a renamed metric)');
    for (const n of ['up', 'restwell_ready', 'restwell_http_requests_total', 'restwell_database_size_bytes', 'restwell_event_streams_open']) assert.ok(used.has(n), `no alert watches ${n}`);
  });

  test('the series the promtool unit tests feed are real metric names too', () => {
    const tests = parse(readFileSync(RULE_TESTS, 'utf8')) as { rule_files: string[]; tests: Array<{ input_series: Array<{ series: string }> }> };
    assert.deepEqual(tests.rule_files, ['alerts.yml']);
    for (const t of tests.tests) {
      for (const { series } of t.input_series) {
        const name = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(series)![0];
        assert.ok(scraped.has(name) || EXTERNAL_NAMES.has(name), `alerts.test.yml feeds ${name}, which no scrape shows`);
      }
    }
  });

  const promtool = findPromtool();
  test('promtool checks the rules and runs their unit tests', { skip: !promtool && 'promtool is not installed (set PROMTOOL, or put it on the PATH)' }, () => {
    const check = execFileSync(promtool!, ['check', 'rules', RULES], { encoding: 'utf8' });
    assert.match(check, new RegExp(`SUCCESS: ${rules.length} rules found`));
    const run = spawnSync(promtool!, ['test', 'rules', 'alerts.test.yml'], { cwd: DIR, encoding: 'utf8' });
    assert.equal(run.status, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /SUCCESS/);
  });
});
