import { describeReason, isIPLiteral, type AddressPolicy } from './address-policy.js';

/** The longest endpoint URL accepted: longer ones are not webhook receivers but mistakes or abuse. */
export const MAX_ENDPOINT_URL_LENGTH = 2048;

/**
 * Why a webhook endpoint URL cannot be used, in words for the user; undefined when it can.
 * An IP-literal host is judged by `policy` now; a host name is judged at every connection
 * (its DNS answer can change after the endpoint is created).
 */
export function checkEndpointUrl(url: string, policy: AddressPolicy): string | undefined {
  if (url.length > MAX_ENDPOINT_URL_LENGTH) return `is longer than ${MAX_ENDPOINT_URL_LENGTH} characters`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'is not an absolute URL (e.g. https://example.com/webhooks)';
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return `must be an http or https URL, not ${parsed.protocol.slice(0, -1)}`;
  // Credentials in the URL would be sent on every delivery and shown wherever the URL is; use headers.
  if (parsed.username || parsed.password) return 'must not contain a user name or password; send credentials in the endpoint\'s headers';
  if (!parsed.hostname) return 'has no host';
  if (isIPLiteral(parsed.hostname)) {
    const ip = parsed.hostname.replace(/^\[|\]$/g, '');
    const verdict = policy.check(ip);
    if (!verdict.allowed) {
      return `points at ${ip}, ${describeReason(verdict.reason)}; deliveries to ${describeReason(verdict.reason, true)} are refused (webhooks.outbound.allowNetworks)`;
    }
  }
  return undefined;
}
