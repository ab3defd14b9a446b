import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** A `restwell serve` child process on a free port. */
export interface ServeProcess {
  child: ChildProcess;
  port: number;
  url: string;
  /** Everything printed on stdout and stderr, in the order it arrived. */
  output(): string;
  /** What was printed on stdout alone. */
  stdout(): string;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Starts `restwell serve` from source (through tsx) with the given flags and waits until it
 * listens; the port is read from its start-up banner.
 */
export async function startServe(args: string[], env: NodeJS.ProcessEnv = {}): Promise<ServeProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--port', '0', '--host', '127.0.0.1', ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let stdout = '';
  child.stdout!.on('data', (d) => ((out += d), (stdout += d)));
  child.stderr!.on('data', (d) => (out += d));
  const port = await new Promise<number>((resolve, reject) => {
    // A server that never comes up is killed (cluster workers exit when their primary goes), so it cannot outlive the test.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start:\n${out}`));
    }, 60_000);
    const check = () => {
      const m = /on http:\/\/localhost:(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}):\n${out}`));
    });
  });
  return {
    child,
    port,
    url: `http://127.0.0.1:${port}`,
    output: () => out,
    stdout: () => stdout,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill(signal);
      await exited;
    },
  };
}

/** Writes a config object to a temp JSON file (for `--config`) and returns its path. */
export function configFile(config: Record<string, unknown>): string {
  const path = join(mkdtempSync(join(tmpdir(), 'restwell-cfg-')), 'restwell.json');
  writeFileSync(path, JSON.stringify(config));
  return path;
}

/** Creates an API key with `restwell keys create` on the config and database `args` name; returns auth headers. */
export function apiKeyHeaders(args: string[], scopes: string): Record<string, string> {
  const key = execFileSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'keys', 'create', ...args, '--name', 'test', '--scopes', scopes], { cwd: ROOT, encoding: 'utf8' }).trim();
  return { authorization: `Bearer ${key}` };
}
