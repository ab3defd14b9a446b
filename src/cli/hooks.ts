import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { InvalidArgumentError } from 'commander';
import { request } from 'undici';
import { cliCommand } from './invocation.js';
import { DEFAULTS } from '../config/defaults.js';
import { ConfigError, loadConfig } from '../config/load.js';
import type { RestwellConfig } from '../config/types.js';
import { databaseLocation } from '../store/database-location.js';
import { cliConfigEnv } from '../webhooks/inbound/demo-secrets.js';
import { findProvider } from '../webhooks/inbound/providers/registry.js';
import { sampleRequest } from '../webhooks/inbound/sample-request.js';
import { serverBaseUrl } from './server-url.js';

/** Options of `restwell hooks send`. */
export interface HooksSendOptions {
  file?: string;
  text?: string;
  url?: string;
  config?: string;
  db?: string;
}

/**
 * `restwell hooks send <source>`: builds a realistic delivery for the source's provider, signs it
 * with the source's configured secrets (for the demo, the generated ones in data/), posts it to a
 * running server and prints the status and body. Exit code 1 when the answer is not 2xx.
 */
export async function hooksSend(sourceName: string, options: HooksSendOptions): Promise<void> {
  const config = loadConfig({ file: options.config, env: cliConfigEnv({ file: options.config, database: options.db }), overrides: { database: options.db } });
  const source = config.webhooks.sources[sourceName];
  if (!source) {
    const known = Object.keys(config.webhooks.sources);
    throw new ConfigError([`no webhook source named "${sourceName}"; configured: ${known.join(', ') || 'none'}`], config.origin ?? options.config ?? 'built-in demo config');
  }
  const body = options.file ? readFileSync(options.file) : undefined;
  const contentType = options.file && extname(options.file) === '.json' ? 'application/json' : undefined;
  // The server this config describes (server.publicUrl, else its host and port), unless --url says otherwise.
  const base = serverBaseUrl(config.server, options.url);
  const sample = sampleRequest(sourceName, source, base, { text: options.text, body, contentType, origin: config.origin });
  const res = await request(sample.url, { method: 'POST', headers: sample.headers, body: sample.body }).catch((err: unknown) => {
    throw unreachable(sample.url, base, err);
  });
  const text = await res.body.text();
  process.stdout.write(`POST ${sample.url}\nHTTP ${res.statusCode} ${res.headers['content-type'] ?? ''}\n${text}\n`);
  if (res.statusCode >= 300) process.exitCode = 1;
}

/** Why nothing answered at `url`, and how to point `hooks send` at the right server: one line, no stack. */
function unreachable(url: string, base: string, err: unknown): InvalidArgumentError {
  const e = err as { code?: string; cause?: { code?: string }; message?: string };
  const reason = e.cause?.code ?? e.code ?? e.message ?? String(err);
  return new InvalidArgumentError(
    `could not send to ${url} (${reason}): is \`restwell serve\` running at ${base}? Pass the server's address with --url, e.g. --url http://localhost:3000`,
  );
}

/** A ready-to-run `hooks send` command per source (the first four; the demo: sms and mail), for the start-up banner. */
export function hooksCommands(config: RestwellConfig, port: number, configFile?: string): string[] {
  const names = Object.keys(config.webhooks.sources);
  if (!names.length) return [];
  const flags = [
    ...(port !== DEFAULTS.server.port ? [`--url http://localhost:${port}`] : []),
    ...(configFile ? [`--config ${configFile}`] : []),
    // The demo's generated secrets sit next to its database, so hooks send must find the same file.
    ...(!configFile && config.database !== DEFAULTS.database && databaseLocation(config.database).kind !== 'server' ? [`--db ${config.database}`] : []),
  ].join(' ');
  return names.slice(0, 4).map((name) => {
    // A text message gets a text worth replying to; the demo answers "who is homer?" with a number.
    const text = findProvider(config.webhooks.sources[name]!.provider)?.kind === 'sms' ? ' --text "who is homer?"' : '';
    return `${cliCommand()} hooks send ${name}${text}${flags ? ` ${flags}` : ''}`;
  });
}
