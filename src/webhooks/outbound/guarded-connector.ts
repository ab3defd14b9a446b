import { lookup, Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import { buildConnector } from 'undici';
import { describeReason, type AddressPolicy, type RefusalReason } from './address-policy.js';

/** The SSRF guard refused to connect: the host is, or resolves to, an address deliveries may not reach. */
export class SsrfBlockedError extends Error {
  override name = 'SsrfBlockedError';
  readonly code = 'ERR_SSRF_BLOCKED';

  constructor(
    readonly host: string,
    readonly address: string,
    readonly reason: RefusalReason,
  ) {
    const what = host === address ? `${host} is` : `${host} resolves to ${address},`;
    super(`${what} ${describeReason(reason)}; deliveries to ${describeReason(reason, true)} are refused (webhooks.outbound.allowNetworks)`);
  }
}

/** A host name did not resolve: no such name, no addresses, or no answer from DNS. */
export class HostResolutionError extends Error {
  override name = 'HostResolutionError';

  constructor(
    readonly host: string,
    readonly code: string,
  ) {
    const why = code === 'ENOTFOUND' || code === 'ENODATA' ? 'no such host (DNS has no address for it)' : code === 'ETIMEOUT' ? 'DNS did not answer in time' : `DNS lookup failed (${code})`;
    super(`${host}: ${why}`);
  }
}

/** Resolves a host name to every address it has. */
export type HostResolver = (host: string) => Promise<string[]>;

/**
 * The resolver deliveries use: the system's (`dns.lookup`, which also reads /etc/hosts) or, when
 * DNS servers are configured, those servers asked for A and AAAA records directly.
 */
export function hostResolver(dnsServers: readonly string[], timeoutMs: number): HostResolver {
  if (!dnsServers.length) {
    return async (host) => {
      try {
        return (await withTimeout(lookup(host, { all: true }), timeoutMs)).map((a) => a.address);
      } catch (err) {
        throw new HostResolutionError(host, (err as NodeJS.ErrnoException).code ?? 'ETIMEOUT');
      }
    };
  }
  const resolver = new Resolver({ timeout: Math.max(100, Math.floor(timeoutMs / 2)), tries: 2 });
  try {
    resolver.setServers([...dnsServers]);
  } catch (err) {
    throw new Error(`webhooks.outbound.dnsServers: ${(err as Error).message} (each an IP address, optionally with a port: 1.1.1.1, 10.0.0.2:5353, [2606:4700:4700::1111]:53)`);
  }
  return async (host) => {
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(host), resolver.resolve6(host)]);
    const addresses = [...(v4.status === 'fulfilled' ? v4.value : []), ...(v6.status === 'fulfilled' ? v6.value : [])];
    if (addresses.length) return addresses;
    // "No such name" from either family says more than the other's "no records of this type".
    const codes = [v4, v6].map((r) => (r.status === 'rejected' ? ((r.reason as NodeJS.ErrnoException).code ?? 'ESERVFAIL') : 'ENODATA'));
    throw new HostResolutionError(host, codes.find((c) => c !== 'ENODATA') ?? 'ENODATA');
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error('DNS timeout'), { code: 'ETIMEOUT' })), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Options of {@link guardedConnector}. */
export interface GuardedConnectorOptions {
  policy: AddressPolicy;
  connectTimeoutMs: number;
  resolve: HostResolver;
}

// Connection failures worth trying the host's next address for: that address alone may be down.
const NEXT_ADDRESS = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'UND_ERR_CONNECT_TIMEOUT']);
const MAX_ADDRESSES_TRIED = 3;

/**
 * An undici connector that checks addresses at connect time, after DNS: the host is resolved here,
 * every address it resolves to must pass the policy (one bad address refuses the host, so a name
 * cannot mix a public and a private answer), the connection goes to a vetted IP (TLS still checks
 * the certificate against the host name), and the connected socket's peer is checked once more.
 */
export function guardedConnector(options: GuardedConnectorOptions): buildConnector.connector {
  const connect = buildConnector({ timeout: options.connectTimeoutMs });
  const { policy } = options;

  const check = (host: string, address: string): SsrfBlockedError | undefined => {
    const verdict = policy.check(address);
    return verdict.allowed ? undefined : new SsrfBlockedError(host, address, verdict.reason);
  };

  const open = (opts: buildConnector.Options, address: string, servername: string | undefined) =>
    new Promise<Parameters<buildConnector.Callback>[1]>((resolve, reject) => {
      connect({ ...opts, hostname: address, ...(servername ? { servername } : {}) }, (err, socket) => (err ? reject(err) : resolve(socket)));
    });

  return (opts, callback) => {
    const host = opts.hostname;
    void (async () => {
      const literal = isIP(host) !== 0;
      const addresses = literal ? [host] : await options.resolve(host);
      for (const address of addresses) {
        const refusal = check(host, address);
        if (refusal) throw refusal;
      }
      let lastError: unknown;
      for (const address of addresses.slice(0, MAX_ADDRESSES_TRIED)) {
        try {
          const socket = await open(opts, address, literal ? undefined : host);
          // The peer actually reached, in case anything between the check and the connection differs.
          const peer = check(host, socket!.remoteAddress ?? '');
          if (peer) {
            socket!.destroy();
            throw peer;
          }
          return socket!;
        } catch (err) {
          lastError = err;
          if (!NEXT_ADDRESS.has((err as NodeJS.ErrnoException).code ?? '')) break;
        }
      }
      throw lastError;
    })().then(
      (socket) => callback(null, socket),
      (err: Error) => callback(err, null),
    );
  };
}
