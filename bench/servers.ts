import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, runCommand, startServer, type ServerProcess } from './processes.js';

/** The repository root (bench/ sits in it). */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const RESTWELL_BIN = join(ROOT, 'bin', 'restwell.js');
const JSON_SERVER_BIN = join(ROOT, 'node_modules', 'json-server', 'lib', 'cli', 'bin.js');

/** Raw node:http with a fixed JSON body: the ceiling every ratio is taken against. */
export async function startRawHttp(): Promise<ServerProcess> {
  const port = await freePort();
  return startServer({ name: 'node:http', command: process.execPath, args: [join(ROOT, 'bench', 'raw-http-server.mjs'), String(port)], port });
}

let partner: Promise<ServerProcess> | undefined;

/**
 * The raw node:http server paired rows alternate with (bench/load.ts measurePaired): one for the whole
 * run, started on first use and idle between rounds; {@link stopPartner} ends it.
 */
export function partnerRawHttp(): Promise<ServerProcess> {
  return (partner ??= startRawHttp());
}

/** Stops the paired rows' raw node:http server, if one was started. */
export async function stopPartner(): Promise<void> {
  const started = partner;
  partner = undefined;
  await (await started?.catch(() => undefined))?.stop();
}

/** json-server 0.17.4 on a db.json (it rewrites that whole file after every write); ready once `readyPath` answers. */
export async function startJsonServer(dbFile: string, readyPath = '/characters/1'): Promise<ServerProcess> {
  const port = await freePort();
  return startServer({
    name: 'json-server',
    command: process.execPath,
    args: [JSON_SERVER_BIN, '--port', String(port), '--host', '127.0.0.1', '--quiet', dbFile],
    cwd: dirname(dbFile),
    port,
    readyPath,
  });
}

/** Options for {@link startRestwell}. */
export interface RestwellOptions {
  db: string;
  config: string;
  /** Extra `serve` flags, e.g. `['--workers', '2']`. */
  args?: string[];
  /** Flags for node itself, before the script (`--cpu-prof …` to profile a missed target). */
  nodeArgs?: string[];
  name?: string;
  /**
   * LOG_LEVEL=warn: no request log. For servers that only set up data, and for the "logging off"
   * rows that measure what the request log costs; every other row runs at the default settings.
   */
  quietLogs?: boolean;
}

/**
 * The built Restwell CLI: `node bin/restwell.js serve --port P --db DB --config FILE` on 127.0.0.1,
 * at its default settings as a user runs it (a JSON line per request at info, to a file: see startServer).
 */
export async function startRestwell(options: RestwellOptions): Promise<ServerProcess> {
  const port = await freePort();
  return startServer({
    name: options.name ?? 'Restwell',
    command: process.execPath,
    args: [...(options.nodeArgs ?? []), RESTWELL_BIN, 'serve', '--port', String(port), '--host', '127.0.0.1', '--db', options.db, '--config', options.config, ...(options.args ?? [])],
    cwd: ROOT,
    // Empty: whatever the shell running the bench sets, the server's own defaults apply.
    env: { LOG_LEVEL: options.quietLogs ? 'warn' : '', LOG_FORMAT: '' },
    port,
  });
}

/** Runs a Restwell CLI command (`keys create …`), for the optional rows' probes and set-up. */
export function restwellCli(args: string[]) {
  return runCommand(process.execPath, [RESTWELL_BIN, ...args], { cwd: ROOT, env: { LOG_LEVEL: 'warn' } });
}

/**
 * True when `restwell <command…> --help` describes that very command (an unknown one prints the
 * top-level usage instead) and mentions `text`: how the optional rows detect a feature.
 */
export async function restwellSupports(command: string[], text = ''): Promise<boolean> {
  const { code, stdout, stderr } = await restwellCli([...command, '--help']);
  const out = stdout + stderr;
  return code === 0 && out.includes(`Usage: restwell ${command.join(' ')} `) && out.includes(text);
}

/** Builds dist/ so the bench measures the current source; throws with the compiler output on failure. */
export async function buildRestwell(): Promise<void> {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const { code, stdout, stderr } = await runCommand(npm, ['run', 'build'], { cwd: ROOT, timeoutMs: 180_000 });
  if (code !== 0) throw new Error(`npm run build failed; the bench measures the built server and cannot go on:\n${(stdout + stderr).trim()}`);
}

/** Runs `fn` with a started server and always stops it, even when `fn` throws. */
export async function withServer<T>(start: Promise<ServerProcess>, fn: (server: ServerProcess) => Promise<T>): Promise<T> {
  const server = await start;
  try {
    return await fn(server);
  } finally {
    await server.stop();
  }
}
