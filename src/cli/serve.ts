import { loadConfig } from '../config/load.js';
import { createServer } from '../server.js';

/** Options of `restwell serve`. */
export interface ServeOptions {
  config?: string;
  port?: number;
  host?: string;
  db?: string;
}

/** Starts the server and keeps it running until SIGINT/SIGTERM, then closes cleanly. */
export async function serve(options: ServeOptions): Promise<void> {
  const config = loadConfig({ file: options.config, overrides: { port: options.port, host: options.host, database: options.db } });
  const server = await createServer(config);
  const { app } = server;
  for (const line of server.sync.applied) app.log.info(`schema: ${line}`);
  for (const line of server.sync.notes) app.log.warn(`schema: ${line}`);
  await app.listen({ port: config.server.port, host: config.server.host });
  const port = (app.server.address() as { port: number }).port;
  const first = [...app.restwell.resources.keys()][0];
  process.stdout.write(
    `\nRestwell is serving ${[...app.restwell.resources.keys()].join(', ')} on http://localhost:${port} (database: ${config.database})\n` +
      (first ? `Try:  curl -i http://localhost:${port}/${first}\n\n` : '\n'),
  );
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal}: closing`);
    await server.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}
