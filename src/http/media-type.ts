/** A header value of the `value; name=param; …` form: Content-Type, a media range of Accept, Content-Disposition. */
export interface MediaType {
  /** The value before the first `;`, trimmed and lower-cased (`application/json`, `form-data`). */
  type: string;
  /** Parameters by lower-cased name; quoted strings unquoted, RFC 8187 `name*` values decoded (and preferred). */
  params: Record<string, string>;
}

const PARAM = /;\s*([^\s;=]+)\s*(?:=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*)))?/g;

/**
 * Parses a media type with its parameters (RFC 9110 §8.3.1, §5.6.6): the one parser for
 * Content-Type, Accept's media ranges and Content-Disposition. Never throws: what does not
 * parse is left out, so each caller decides what a missing type or parameter means.
 */
export function parseMediaType(header: string | undefined): MediaType {
  const value = header ?? '';
  const semi = value.indexOf(';');
  const type = (semi === -1 ? value : value.slice(0, semi)).trim().toLowerCase();
  const params: Record<string, string> = Object.create(null);
  const extended = new Set<string>();
  if (semi !== -1) {
    for (const m of value.slice(semi).matchAll(PARAM)) {
      const name = m[1]!.toLowerCase();
      const raw = m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : (m[3] ?? '').trim();
      if (name.endsWith('*')) {
        const decoded = decodeExtValue(raw);
        if (decoded !== undefined) {
          params[name.slice(0, -1)] = decoded;
          extended.add(name.slice(0, -1));
        }
      } else if (!extended.has(name) && !(name in params)) {
        params[name] = raw;
      }
    }
  }
  return { type, params };
}

/** `charset'language'percent-encoded` (RFC 8187 §3.2); undefined when it is not one. */
function decodeExtValue(raw: string): string | undefined {
  const m = /^([^']*)'[^']*'(.*)$/.exec(raw.trim());
  if (!m) return undefined;
  try {
    const bytes = Buffer.from(m[2]!.replace(/%([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1');
    return new TextDecoder(m[1]!.toLowerCase() === 'iso-8859-1' ? 'latin1' : 'utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
