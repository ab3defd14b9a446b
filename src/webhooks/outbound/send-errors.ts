import { HostResolutionError, SsrfBlockedError } from './guarded-connector.js';

/** A delivery attempt ran out of time (the sender's overall deadline). */
export class DeliveryTimeoutError extends Error {
  override name = 'DeliveryTimeoutError';

  constructor(readonly timeoutMs: number) {
    super(`no complete response within ${timeoutMs} ms (webhooks.outbound.timeout)`);
  }
}

const TLS_CODES = /^(CERT_|ERR_TLS_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_|ERR_SSL_)/;

/** Why a delivery attempt got no response, in words a user can act on. */
export function describeSendError(err: unknown, url: URL, settings: { connectTimeoutMs: number; timeoutMs: number }): string {
  if (err instanceof SsrfBlockedError || err instanceof HostResolutionError || err instanceof DeliveryTimeoutError) return err.message;
  const e = err as NodeJS.ErrnoException | undefined;
  const code = e?.code ?? '';
  const where = url.host;
  switch (code) {
    case 'ECONNREFUSED':
      return `connection refused by ${where}: nothing is listening there`;
    case 'UND_ERR_CONNECT_TIMEOUT':
      return `could not connect to ${where} within ${settings.connectTimeoutMs} ms (webhooks.outbound.connectTimeout)`;
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
      return new DeliveryTimeoutError(settings.timeoutMs).message;
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
      return `${where} closed the connection before a complete response`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `${where} is unreachable from this server (no route to it)`;
    case 'UND_ERR_INVALID_ARG':
      return `the request could not be made: ${e?.message}`;
  }
  if (TLS_CODES.test(code)) return `TLS with ${url.hostname} failed: ${e?.message} (the receiver needs a certificate valid for ${url.hostname})`;
  if (code === 'HPE_INVALID_CONSTANT' || code.startsWith('HPE_') || code === 'UND_ERR_RESPONSE') return `${where} did not answer with valid HTTP (${e?.message})`;
  return `delivery failed: ${e?.message ?? String(err)}`;
}
