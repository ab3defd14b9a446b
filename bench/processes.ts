import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A server the bench started in its own process group (so `--workers` children die with it). */
export interface ServerProcess {
  name: string;
  url: string;
  child: ChildProcess;
  /** The file its stdout and stderr go to (removed when it is stopped). */
  logFile: string;
  /** The last 8 KiB it wrote to stderr and stdout, for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();

/** Kills every process group the bench started; safe to call more than once. */
export function killAll(): void {
  for (const child of running) signalGroup(child, 'SIGKILL');
  running.clear();
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

/** Makes sure no server outlives the bench, whatever ends it. */
export function installCleanup(onFatal: () => void = () => {}): void {
  process.on('exit', killAll);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      killAll();
      onFatal();
      process.exit(130);
    });
  }
  process.on('uncaughtException', (err) => {
    process.stderr.write(`bench: ${err.stack ?? err}\n`);
    killAll();
    onFatal();
    process.exit(1);
  });
}

/** A free TCP port on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Options for {@link startServer}. */
export interface StartOptions {
  name: string;
  command: string;
  args: string[];
  port: number;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Path that answers (any status) once the server is up. */
  readyPath?: string;
  readyTimeoutMs?: number;
}

/**
 * Spawns a server in its own process group and resolves once it answers HTTP on 127.0.0.1. Its
 * stdout and stderr go to a file, as a process manager collects them: a pipe the bench reads would
 * put the bench's own event loop in the path of every log line the server writes.
 */
export async function startServer(options: StartOptions): Promise<ServerProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'rw-bench-server-'));
  const logFile = join(dir, 'output.log');
  const fd = openSync(logFile, 'a');
  let child: ChildProcess;
  try {
    child = spawn(options.command, options.args, {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      detached: true,
      stdio: ['ignore', fd, fd],
    });
  } finally {
    // The child has its own copy of the descriptor.
    closeSync(fd);
  }
  running.add(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${options.port}`;
  const output = () => tail(logFile, 8192);
  const server: ServerProcess = {
    name: options.name,
    url,
    child,
    logFile,
    output,
    async stop() {
      signalGroup(child, 'SIGTERM');
      const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
      running.delete(child);
      // A row's log can be hundreds of MB (a line per request); nothing reads it once the server is gone.
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await waitReady(`${url}${options.readyPath ?? '/'}`, child, options.readyTimeoutMs ?? 20_000);
  } catch (err) {
    const last = output().trim().split('\n').slice(-16).join('\n');
    await server.stop();
    throw new Error(`${options.name} did not start: ${(err as Error).message}\n${last}`);
  }
  return server;
}

/** The last `bytes` of a file as text ('' once it is gone). */
function tail(file: string, bytes: number): string {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return '';
  }
  try {
    const size = statSync(file).size;
    const length = Math.min(bytes, size);
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, size - length);
    return buffer.toString();
  } finally {
    closeSync(fd);
  }
}

async function waitReady(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`exited with ${child.exitCode ?? child.signalCode}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
      await res.arrayBuffer();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`no answer on ${url} within ${timeoutMs} ms`);
}

/** Runs a command to completion and returns its exit code and output (for CLI probes). */
export function runCommand(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      running.delete(child);
      resolve({ code, stdout, stderr });
    });
    child.on('error', (err) => {
      clearTimeout(timer);
      running.delete(child);
      resolve({ code: null, stdout, stderr: stderr + String(err) });
    });
  });
}
