import { isCredentialName } from './credential-name.js';

/**
 * The URL as a log line shows it: Restwell takes no secret in a query, but a client may still
 * send one (`?access_token=` out of habit), so the value of every parameter whose name
 * looks like a credential (isCredentialName) is replaced. Headers, Authorization above all, are never logged.
 */
export function loggableUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // A malformed escape is logged as sent.
      }
      return eq >= 0 && isCredentialName(decoded) ? `${name}=[redacted]` : pair;
    })
    .join('&');
  return `${url.slice(0, q)}?${query}`;
}
