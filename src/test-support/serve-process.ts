import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');

/** A `restwell serve` running as its own process, for tests that need real processes (many nodes, faults). */
export interface ServeProcess {
  /** `http://127.0.0.1:<port>` */
  url: string;
  child: ChildProcess;
  /** Everything it printed so far (stdout and stderr), for failure messages. */
  output(): string;
  /** SIGTERM, then waits for the exit code. */
  stop(): Promise<number | null>;
}

/** Writes a config object to a temp JSON file and returns its path. */
export function configFile(config: Record<string, unknown>): string {
  const path = join(mkdtempSync(join(tmpdir(), 'restwell-cfg-')), 'restwell.json');
  writeFileSync(path, JSON.stringify(config));
  return path;
}

/**
 * Starts `restwell serve --port 0 …args` from the sources (tsx) and resolves once it prints the
 * port it listens on; rejects with its output if it exits first or does not start in `timeoutMs`.
 */
export function startServeProcess(args: string[], options: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {}): Promise<ServeProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--host', '127.0.0.1', '--port', '0', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return new Promise((resolveStart, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`restwell serve did not start in time:\n${out}`));
    }, options.timeoutMs ?? 60_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /serving .* on http:\/\/localhost:(\d+)/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
      resolveStart({
        url: `http://127.0.0.1:${m[1]}`,
        child,
        output: () => out,
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          return exited;
        },
      });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`restwell serve exited with code ${code} before listening:\n${out}`));
    });
  });
}
