/**
 * The URL a provider signed. Behind a proxy the request URL is not the public one, so a
 * configured `publicUrl` replaces it; the request's query string is kept unless `publicUrl`
 * has its own (Twilio puts `bodySHA256` there).
 */
export function signedUrl(requestUrl: string, publicUrl: string | undefined): string {
  if (!publicUrl) return requestUrl;
  if (publicUrl.includes('?')) return publicUrl;
  const q = requestUrl.indexOf('?');
  return q < 0 ? publicUrl : publicUrl + requestUrl.slice(q);
}

interface UrlParts {
  scheme: string;
  userInfo: string;
  host: string;
  port: string;
  rest: string;
}

// Split without `new URL()`, which would re-encode characters the provider signed verbatim.
function splitUrl(url: string): UrlParts | undefined {
  const m = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)/i.exec(url);
  if (!m) return undefined;
  const authority = m[2]!;
  const at = authority.lastIndexOf('@');
  const hostPort = authority.slice(at + 1);
  const colon = hostPort.indexOf(':', hostPort.lastIndexOf(']') + 1); // skip IPv6 literals
  return {
    scheme: m[1]!,
    userInfo: authority.slice(0, at + 1),
    host: colon < 0 ? hostPort : hostPort.slice(0, colon),
    port: colon < 0 ? '' : hostPort.slice(colon),
    rest: url.slice(m[0].length),
  };
}

/** The URL with its scheme's default port added when it has none (`https://h/x` → `https://h:443/x`). */
export function withPort(url: string): string {
  const p = splitUrl(url);
  if (!p || p.port) return url;
  const port = p.scheme.toLowerCase() === 'https://' ? ':443' : ':80';
  return p.scheme + p.userInfo + p.host + port + p.rest;
}

/** The URL with any explicit port removed. */
export function withoutPort(url: string): string {
  const p = splitUrl(url);
  return p ? p.scheme + p.userInfo + p.host + p.rest : url;
}
