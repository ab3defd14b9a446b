import { isIP, type Server } from 'node:net';

/**
 * This server's absolute base URL (no trailing slash), decided at start and never from a request:
 * a client picks the Host header, so anything built from it could be spoofed (a problem `type`
 * pointing elsewhere, poisoned into a cache) or split one server into many (a token fetched
 * through `127.0.0.1` refused through `localhost`). It is `server.publicUrl` when configured;
 * else `http://{host}:{port}` with the port the server listens on (a configured 0 becomes the
 * real one once it listens) and, as host, `server.host` when that is a name (`localhost`,
 * `api.internal`), `localhost` when the server listens on every interface (`0.0.0.0`, `::`),
 * else the address it listens on. Tokens are checked by this same server, so what matters is
 * that the value never changes while it runs; set `server.publicUrl` for the URL clients use.
 */
export class ServerOrigin {
  #url: string;

  constructor(
    private readonly publicUrl: string | undefined,
    private readonly host: string,
    port: number,
  ) {
    this.#url = publicUrl?.replace(/\/+$/, '') ?? `http://${urlHost(host, host)}:${port}`;
  }

  /** The base URL: what problem `type`s, token `iss`/`aud` and the OAuth metadata are built on. */
  get url(): string {
    return this.#url;
  }

  /**
   * Follows `server`'s listening address. Set on 'listening', which Node emits before it accepts
   * a connection, so no request ever sees the value from before.
   */
  attach(server: Server): void {
    if (this.publicUrl) return;
    server.on('listening', () => {
      const address = server.address();
      if (address && typeof address === 'object') this.#url = `http://${urlHost(this.host, address.address)}:${address.port}`;
    });
  }
}

/** The host part of the URL: the configured name, or for an IP the address bound (wildcards read as localhost). */
function urlHost(configured: string, bound: string): string {
  if (configured && isIP(configured) === 0) return configured;
  if (bound === '' || bound === '0.0.0.0' || bound === '::') return 'localhost';
  return isIP(bound) === 6 ? `[${bound}]` : bound;
}
