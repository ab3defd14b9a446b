import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, mkdtempSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { ROOT } from '../support-process.js';

/**
 * Replays README.md's shell blocks top to bottom, as a newcomer runs them: a fresh demo started the
 * way `npm start` starts it, then every ```sh / ```bash block in order, for real (bash, curl over a
 * real socket, the published `node bin/restwell.js`, which scripts/test.mjs builds first). The
 * README's fence info string says how a block runs:
 *   sh                       run; it must exit 0 (bash -euo pipefail); its variables carry on
 *   sh skip-test             not run (installing, another long-running server, a browser)
 *   sh background ready="…"  started and left running (another terminal); the next block waits for "…" in its output
 *   sh server                `npm start -- flags`: the demo is stopped and started again with those flags
 * SQLite only: the tour is the demo on its default SQLite file.
 *
 * The blocks run in a scratch folder standing in for the project folder (bin/ linked, the json-server
 * example copied), so ./data, payload.json and the files exports write stay out of the checkout.
 * What is changed in the text, and only this: `localhost:8080` names the test's demo port and
 * `localhost:3000` a free port (the json-server example, given it through PORT, as the README says);
 * `hooks send` and `hooks listen` get `--url` (they default to port 8080, and the README says to pass
 * `--url` for another one), and `hooks listen` `--port 0` (9000 may be taken on a shared machine).
 */

type Mode = 'run' | 'skip' | 'background' | 'server';
interface Block {
  line: number;
  info: string;
  mode: Mode;
  ready?: string;
  source: string;
}

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The README's shell blocks in order, with how each runs (from its fence's info string). */
function shellBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i]!); i++) body.push(lines[i]!);
    const info = open[1]!.trim();
    const [lang, ...words] = info.split(/\s+/);
    if (!['sh', 'bash', 'shell'].includes(lang ?? '')) continue;
    const flags = words.join(' ');
    const mode: Mode = /\bskip-test\b/.test(flags) ? 'skip' : /\bbackground\b/.test(flags) ? 'background' : /\bserver\b/.test(flags) ? 'server' : 'run';
    const unknown = flags.replace(/\bready="[^"]*"/, '').replace(/\b(skip-test|background|server)\b/g, '').trim();
    assert.equal(unknown, '', `README.md line ${start + 1}: unknown fence words "${unknown}" (say skip-test, background ready="…" or server)`);
    const ready = /\bready="([^"]*)"/.exec(flags)?.[1];
    if (mode === 'background') assert.ok(ready, `README.md line ${start + 1}: a background block says what it prints once ready: ready="…"`);
    blocks.push({ line: start + 1, info, mode, ...(ready ? { ready } : {}), source: body.join('\n') + '\n' });
  }
  return blocks;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** A child process and everything it printed (stdout and stderr, in arrival order). */
class Running {
  output = '';
  done = false;
  readonly exited: Promise<[number | null]>;
  private readonly waiters = new Set<() => void>();
  constructor(readonly child: ChildProcess, readonly what: string) {
    const heard = (t: string) => {
      this.output += t;
      for (const w of [...this.waiters]) w();
    };
    child.stdout!.setEncoding('utf8').on('data', heard);
    child.stderr!.setEncoding('utf8').on('data', heard);
    // 'close' comes after the last output, so a process that is done has printed everything.
    this.exited = once(child, 'close').then(([code]) => {
      this.done = true;
      for (const w of [...this.waiters]) w();
      return [code as number | null];
    });
  }
  /** Waits until the output matches, failing (not hanging) when the process ends first or nothing comes for long. */
  waitFor(pattern: RegExp | string, limitMs = 90_000): Promise<void> {
    const matches = () => (typeof pattern === 'string' ? this.output.includes(pattern) : pattern.test(this.output));
    return new Promise<void>((resolve, reject) => {
      const finish = (problem?: string) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        if (problem) reject(new Error(`${this.what} ${problem} ${pattern}:\n${this.output}`));
        else resolve();
      };
      const check = () => (matches() ? finish() : this.done ? finish('ended before printing') : undefined);
      const timer = setTimeout(() => finish(`did not print, within ${limitMs / 1000} s,`), limitMs);
      this.waiters.add(check);
      check();
    });
  }
  /** Ends it and everything it started (it leads its own process group). */
  async stop(): Promise<void> {
    if (this.done) return;
    try {
      process.kill(-this.child.pid!, 'SIGTERM');
    } catch {
      this.child.kill('SIGTERM');
    }
    await this.exited;
  }
}

const cwd = mkdtempSync(join(tmpdir(), 'restwell-readme-'));
symlinkSync(join(ROOT, 'bin'), join(cwd, 'bin'));
cpSync(join(ROOT, 'examples', 'json-server'), join(cwd, 'examples', 'json-server'), { recursive: true });
const state = join(cwd, '.tour-env.sh');
writeFileSync(state, '');

// Only what the README sets: nothing from the test run's own environment names a database or a server.
const baseEnv: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn' };
for (const name of ['DATABASE_URL', 'RESTWELL_CONFIG', 'PORT', 'HOST', 'RESTWELL_TOKEN', 'TOKEN', 'KEY']) delete baseEnv[name];

const background: { block: Block; run: Running }[] = [];
let demo: Running | undefined;
let demoPort = 0;
after(async () => {
  for (const { run } of background) await run.stop();
  await demo?.stop();
});

/** Starts the demo as `npm start [-- flags]` does (package.json's start script), on the test's port. */
async function startDemo(flags: string[]): Promise<Running> {
  const start = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
  const [program, ...args] = start.split(' ');
  assert.equal(program, 'node', 'npm start runs node');
  const child = spawn(process.execPath, [...args, ...flags, '--port', String(demoPort)], { cwd, env: baseEnv, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const run = new Running(child, `npm start -- ${flags.join(' ')}`);
  await run.waitFor(/on http:\/\/localhost:(\d+)/);
  demoPort = Number(/on http:\/\/localhost:(\d+)/.exec(run.output)![1]);
  return run;
}

/** The block's text with the test's ports (see the comment at the top). */
function adapt(source: string, jsonServerPort: number): string {
  const url = `http://localhost:${demoPort}`;
  return source
    .replaceAll('localhost:8080', `localhost:${demoPort}`)
    .replaceAll('localhost:3000', `localhost:${jsonServerPort}`)
    .replace(/hooks send (\S+)/g, `hooks send $1 --url ${url}`)
    .replace(/hooks listen/g, `hooks listen --port 0 --url ${url}`);
}

/** bash with the variables earlier blocks set (set -a exports each assignment, so `export -p` keeps them). */
function bash(script: string, env: NodeJS.ProcessEnv, keepState: boolean): ChildProcess {
  const saved = keepState ? `\nexport -p > ${JSON.stringify(state + '.next')}\n` : '\n';
  return spawn('bash', ['-euo', 'pipefail', '-c', `set -a\nsource ${JSON.stringify(state)}\n${script}${saved}`], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
}

/** What some blocks must print (found by their text; each must match exactly one block). */
const checks: { name: string; matches: RegExp; check: (out: string, block: Block) => void }[] = [
  {
    name: 'the tour key',
    matches: /--name tour --scopes/,
    check: () => assert.match(readFileSync(state, 'utf8'), /declare -x TOKEN="[^"]{20,}"/),
  },
  {
    name: 'the curl walkthrough',
    matches: /^# → \d{3}$/m,
    check: (out, block) => {
      const expected = [...block.source.matchAll(/^# → (\d{3})/gm)].map((m) => Number(m[1]));
      assert.ok(expected.length >= 16, 'the walkthrough covers create, read, list, replace, patch, conditional requests, errors and delete');
      const statuses = [...out.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
      assert.deepEqual(statuses, expected, out);
      assert.match(out, /^location: \/characters\/1\r?$/im);
      assert.match(out, /"name":"Homer"/);
      assert.match(out, /^content-type: application\/problem\+json/im);
      assert.match(out, /^allow: /im);
      assert.match(out, /^link: <\/characters\?sort=name&limit=10>; rel="first"/im);
    },
  },
  {
    name: 'the json-server example',
    matches: /^curl localhost:3000\/posts\/1$/m,
    check: (out) => {
      assert.match(out, /"title"/);
      assert.match(out, /"postId": ?1/);
    },
  },
  {
    name: 'the operations probes and metrics',
    matches: /\/healthz/,
    check: (out) => {
      assert.match(out, /^\{"status":"ok"\}\n\{"status":"ok"\}\n/);
      assert.match(out, /^restwell_http_requests_total\{method="GET",route="\/healthz",status="200"\} \d+$/m);
    },
  },
  {
    name: 'API keys and OAuth clients',
    matches: /clients create --name svc/,
    check: (out) => {
      assert.match(out, /^HTTP\/1\.1 201 /m);
      assert.match(out, /revoked key_/);
      assert.match(out, /"access_token":"/);
    },
  },
  {
    name: 'receiving webhooks',
    matches: /hooks send sms/,
    check: (out) => {
      assert.match(out, /<Message>Apu: 555-7334<\/Message>/);
      assert.match(out, /"subject":"Hello from Springfield"/);
      assert.equal([...out.matchAll(/^HTTP 200 /gm)].length, 3, out);
    },
  },
  {
    name: 'sending webhooks',
    matches: /webhook-endpoints\/\$EP\/deliveries/,
    check: (out) => {
      assert.match(out, /^HTTP\/1\.1 201 /m);
      assert.match(out, /"secret":"whsec_/);
      assert.match(out, /"eventType":"characters\.created"/);
    },
  },
];

/** What a background block must have printed by the time the demo restarts or the tour ends. */
const eventually: { name: string; matches: RegExp; output: RegExp }[] = [
  { name: 'the live event stream gets events written after it opened', matches: /^curl -N [^\n]*\/events\/stream /m, output: /^data: \{"id":"evt_[^\n]*"type":"characters\.created"[^\n]*"name":"Apu"/m },
  { name: 'the resumed stream first sends the events missed since Last-Event-ID', matches: /Last-Event-ID: \$FIRST/, output: /^data: [^\n]*"name":"Marge"/m },
  { name: 'hooks listen prints the verified delivery of a change', matches: /hooks listen --register/, output: /characters\.created {2}\{[^\n]*"name":"Ned"/ },
];

async function settleBackground(): Promise<void> {
  for (const { block, run } of background) {
    for (const e of eventually.filter((x) => x.matches.test(block.source))) await run.waitFor(e.output);
  }
}

test('the README runs top to bottom as printed: every shell block, against a fresh demo', async (t) => {
  const blocks = shellBlocks(README);
  const first = blocks[0]!;
  assert.match(first.source, /^npm install && npm start /m, 'the README begins with how to start the demo');
  assert.equal(first.mode, 'skip', 'the quick start (installing, then a server that runs until Ctrl-C) is marked skip-test');
  for (const c of [...checks, ...eventually]) {
    const found = blocks.filter((b) => c.matches.test(b.source));
    assert.equal(found.length, 1, `exactly one README block is "${c.name}" (${c.matches}): found ${found.length}`);
  }
  assert.ok(blocks.some((b) => b.mode === 'server') && blocks.some((b) => b.mode === 'background'));

  const jsonServerPort = await freePort();
  demo = await startDemo([]);
  const env = { ...baseEnv, PORT: String(jsonServerPort) };

  /** Runs one block as its fence says (see the comment at the top). */
  async function runBlock(block: Block, where: string): Promise<void> {
    if (block.mode === 'server') {
      const m = /^npm start(?: -- (.*))?$/m.exec(block.source.replace(/\s+#.*$/gm, ''));
      assert.ok(m, `${where}: a server block is one \`npm start -- flags\` line`);
      // What earlier background blocks promised is checked before the restart cuts their streams.
      await settleBackground();
      await demo!.stop();
      demo = await startDemo(m[1]!.trim().split(/\s+/));
      if (/--allow-local-webhooks/.test(m[1]!)) assert.match(demo.output, /WARNING: --allow-local-webhooks: outbound webhooks may be delivered to this machine/);
      return;
    }
    const script = adapt(block.source, jsonServerPort);
    if (block.mode === 'background') {
      const run = new Running(bash(script, env, false), where);
      background.push({ block, run });
      await run.waitFor(adapt(block.ready!, jsonServerPort));
      return;
    }
    const run = new Running(bash(script, env, true), where);
    const [code] = await run.exited;
    assert.equal(code, 0, `${where} failed:\n${script}\n--- output ---\n${run.output}`);
    renameSync(state + '.next', state);
    for (const c of checks.filter((x) => x.matches.test(block.source))) c.check(run.output, block);
  }

  let failed: string | undefined;
  for (const block of blocks) {
    const where = `README.md line ${block.line} (\`\`\`${block.info})`;
    if (block.mode === 'skip') continue;
    // Each block builds on the ones before, as it does for a reader: after a failure the rest say so instead of failing too.
    if (failed) {
      await t.test(where, { skip: `not run: ${failed} failed` }, () => undefined);
      continue;
    }
    failed = where;
    await t.test(where, async () => {
      await runBlock(block, where);
      failed = undefined;
    });
  }
  assert.equal(failed, undefined, `${failed} failed`);
  await settleBackground();
});

test('the fence words are read as documented; an unknown word is refused', () => {
  const blocks = shellBlocks(['```sh', 'a', '```', '```bash background ready="x y"', 'b', '```', '```sh skip-test', 'c', '```', '```yaml', 'd: 1', '```', '```sh server', 'npm start', '```'].join('\n'));
  assert.deepEqual(
    blocks.map((b) => [b.mode, b.ready, b.source]),
    [['run', undefined, 'a\n'], ['background', 'x y', 'b\n'], ['skip', undefined, 'c\n'], ['server', undefined, 'npm start\n']],
  );
  assert.throws(() => shellBlocks('```sh skiptest\nx\n```\n'), /unknown fence words "skiptest"/);
});
