import { hostname } from 'node:os';
import pino from 'pino';
import { prettyLogs } from '../app/ops/logger-from-env.js';
import { describeAccess } from '../auth/exposure.js';
import type { RestwellConfig } from '../config/types.js';
import type { ResourceDefinition } from '../core/resource.js';
import { hooksCommands } from './hooks.js';
import { createKeyCommand } from './keys.js';
import { redact } from './redact.js';

/** What `serve` says once it listens. */
export interface BannerFacts {
  config: RestwellConfig;
  resources: ResourceDefinition[];
  port: number;
  workers: number;
  configFile?: string;
  /** One more line, said right after the first (what this run does differently: writes opened to this machine). */
  notice?: string;
}

/**
 * Prints the start-up banner on stdout: the text a person reads when logs are pretty (a terminal),
 * else one JSON log line (pino's shape, with the facts as fields), so stdout stays JSON lines that
 * a log shipper can parse. It is printed whatever LOG_LEVEL says: it is the command's answer.
 */
export function printBanner(facts: BannerFacts, env: NodeJS.ProcessEnv = process.env, terminal = process.stdout.isTTY === true, out: NodeJS.WritableStream = process.stdout): void {
  if (prettyLogs(env, terminal)) {
    out.write(bannerText(facts));
    return;
  }
  const { msg, ...fields } = bannerRecord(facts);
  pino({ level: 'info', base: { pid: process.pid, hostname: hostname() } }, out as pino.DestinationStream).info(fields, msg);
}

/** The banner's facts as a log record: `msg` is its first line; the rest are fields. */
function bannerRecord({ config, resources, port, workers, configFile, notice }: BannerFacts) {
  const url = `http://localhost:${port}`;
  const database = redact(config.database);
  const first = resources[0]?.name;
  return {
    msg: `Restwell is serving ${resources.map((r) => r.name).join(', ')} on ${url} (database: ${database}${workers > 1 ? `, ${workers} workers` : ''})`,
    url,
    database,
    workers,
    ...(notice ? { notice } : {}),
    access: resources.map(describeAccess),
    ...(first ? { try: `curl -i ${url}/${first}` } : {}),
    ...(config.server.static ? { frontEnd: `files of ${config.server.static} at ${url}/ (browsers get its index.html at /)` } : {}),
    ...(config.server.cors ? { cors: `pages of ${config.server.cors.origins.join(', ')} may call the API` } : {}),
    createApiKey: createKeyCommand({ ...config, database }, configFile),
    sendTestWebhook: hooksCommands(config, port, configFile),
  };
}

/** The banner as text for a terminal. */
function bannerText(facts: BannerFacts): string {
  const record = bannerRecord(facts);
  return (
    `\n${record.msg}\n` +
    (record.notice ? `${record.notice}\n` : '') +
    record.access.map((line) => `  ${line}\n`).join('') +
    (record.try ? `Try:  ${record.try}\n` : '') +
    (record.frontEnd ? `Front-end:  ${record.frontEnd}\n` : '') +
    (record.cors ? `CORS:  ${record.cors}\n` : '') +
    `Create an API key (printed once):  ${record.createApiKey}\n` +
    record.sendTestWebhook.map((command) => `Send a signed test webhook:  ${command}\n`).join('') +
    '\n'
  );
}
