/** What a credential reads as wherever the API shows headers (the inbox, endpoints' custom headers). */
export const REDACTED = '[redacted]';

/** Headers that carry credentials whatever the source. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie']);
/** Names that by convention carry a credential: x-api-key, x-auth-token, x-webhook-secret, … */
const CREDENTIAL_NAME = /(^|[-_])(auth|authorization|token|secret|password|passwd|api-?key|apikey|session|credentials?)([-_]|$)/i;
/** A value that is a credential whatever its header's name (`Bearer …`, `Basic …`). */
const CREDENTIAL_VALUE = /^\s*(bearer|basic|digest)\s+\S/i;

/** True when a header, by its name or its value, carries a credential. */
export function isCredentialHeader(name: string, value: string): boolean {
  const key = name.toLowerCase();
  return CREDENTIAL_HEADERS.has(key) || CREDENTIAL_NAME.test(key) || CREDENTIAL_VALUE.test(value);
}
