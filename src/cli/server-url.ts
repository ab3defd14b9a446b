import type { RestwellConfig } from '../config/types.js';
import { ServerOrigin } from '../http/server-origin.js';

/**
 * The base URL a command on this machine reaches the configured server at, for what it sends or
 * prints: `--url` when given; else `server.publicUrl`, else the host and port it listens on (an
 * every-interface host is reached as localhost), as the server names itself.
 */
export function serverBaseUrl(server: Pick<RestwellConfig['server'], 'publicUrl' | 'host' | 'port'>, url?: string): string {
  return url?.replace(/\/+$/, '') ?? new ServerOrigin(server.publicUrl, server.host, server.port).url;
}
