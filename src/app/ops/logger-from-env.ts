import type { DestinationStream } from 'pino';
import pretty from 'pino-pretty';
import { jsonLogDestination } from './json-log-destination.js';

/** What the app's logger is given: a level, and where lines go (stdout, written synchronously, when absent). */
export interface LoggerSettings {
  level: string;
  stream?: DestinationStream;
}

/**
 * The logger a server gets from its environment: `LOG_LEVEL` (default info); `LOG_FORMAT=json`
 * or `pretty`, else pretty and coloured in a terminal unless NODE_ENV=production, and JSON lines
 * (one object per line, for log shippers) everywhere else, written asynchronously through a buffer
 * (jsonLogDestination: flushed on shutdown and when the process exits, a crash included).
 */
export function loggerFromEnv(env: NodeJS.ProcessEnv = process.env, terminal = process.stdout.isTTY === true): LoggerSettings {
  const level = env.LOG_LEVEL || 'info';
  if (!prettyLogs(env, terminal)) return { level, stream: jsonLogDestination() };
  return {
    level,
    // Synchronous, in this thread: a terminal is for a person watching, not for throughput.
    stream: pretty({
      colorize: terminal && !env.NO_COLOR,
      sync: true,
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname,method,url,status,ms',
      singleLine: true,
    }),
  };
}

/** True when the environment asks for lines a person reads rather than JSON lines (see {@link loggerFromEnv}). */
export function prettyLogs(env: NodeJS.ProcessEnv = process.env, terminal = process.stdout.isTTY === true): boolean {
  const format = env.LOG_FORMAT?.toLowerCase();
  return format === 'pretty' || (format !== 'json' && terminal && env.NODE_ENV !== 'production');
}
