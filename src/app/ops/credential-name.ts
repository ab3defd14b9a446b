/**
 * Fragments that, anywhere in a name, mark it as holding a credential: `access_token`,
 * `X-Amz-Security-Token`, `client_secret`, `sslpassword`, `X-Amz-Signature`, `jwt`, `sessionid`,
 * `X-Amz-Credential`, `authorization`. `auth` is one unless the word is `author`(s/ed), a common field.
 */
const FRAGMENT = /token|secret|passw|pwd|signature|jwt|session|sessid|credential|cookie|bearer|private|apikey|auth(?!or(?:s|ed)?(?:[^a-z]|$))/;
/** Whole words that do (a word is split at punctuation and camelCase): Azure's `sig`, OAuth's `code`; and any word ending in `key`. */
const WORDS = new Set(['sig', 'code', 'pass', 'pw', 'hmac', 'otp', 'sid', 'nonce', 'ticket']);

/**
 * True when a name (a query parameter's, a URL parameter's) looks like it carries a credential.
 * Safety first: a harmless name that matches (`monkey` ends in `key`) only costs a value in a
 * log line, while a credential that slips through is a leak. The names
 * lists and pages take (`sort`, `limit`, `cursor`, `fields`, `expand`, `q`, filters on ordinary
 * fields) do not match, so logs stay useful.
 */
export function isCredentialName(name: string): boolean {
  const lower = name.toLowerCase();
  if (FRAGMENT.test(lower)) return true;
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z0-9]+/);
  return words.some((w) => WORDS.has(w) || w.endsWith('key'));
}
