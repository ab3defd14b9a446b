/** Escapes text for HTML element content and attribute values (always quote attributes). */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/**
 * The same-origin path an `href` names, or undefined when it names another origin or scheme.
 * A path (`/…`, not `//…`) is same-origin; an absolute URL is when it starts with this server's
 * base URL. Only these become links, so a stored value can never make a `javascript:` link.
 */
export function sameOriginPath(href: string, base: string): string | undefined {
  if (href.startsWith('/') && !href.startsWith('//') && !href.startsWith('/\\')) return href;
  const prefix = base.replace(/\/+$/, '');
  if (prefix && (href === prefix || href.startsWith(`${prefix}/`) || href.startsWith(`${prefix}?`))) return href.slice(prefix.length) || '/';
  return undefined;
}
