/** Query parameters whose values could be credentials, whatever a client puts there. */
const SECRET_PARAM = /^(access_token|token|api_key|apikey|key|secret|client_secret|password|pass|signature|sig|code|auth)$/i;

/**
 * The URL as a log line shows it: Restwell takes no secret in a query, but a client may still
 * send one (`?access_token=` out of habit), so such values are replaced. Headers, Authorization
 * above all, are never logged.
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
      return eq >= 0 && SECRET_PARAM.test(decoded) ? `${name}=[redacted]` : pair;
    })
    .join('&');
  return `${url.slice(0, q)}?${query}`;
}
