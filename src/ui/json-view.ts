import { escapeHtml, sameOriginPath } from './html.js';

/**
 * A JSON value pretty-printed as HTML, every string escaped, and every same-origin `href` member
 * a link. Built from the value, not by matching patterns in escaped text: a query string's `&`
 * (escaped as `&amp;`) or a quote in a value cannot break a link or make one. A templated `href`
 * (RFC 6570) links to itself with its query expressions dropped, when it has no path variables.
 */
export function renderJson(value: unknown, base: string): string {
  return render(value, base, '', undefined);
}

function render(value: unknown, base: string, indent: string, key: string | undefined, templated = false): string {
  if (value === null || typeof value !== 'object') {
    const text = escapeHtml(JSON.stringify(value) ?? 'null');
    if (key === 'href' && typeof value === 'string') {
      const target = linkTarget(value, base, templated);
      if (target !== undefined) return `<a href="${escapeHtml(target)}">${text}</a>`;
    }
    return typeof value === 'string' ? `<span class="s">${text}</span>` : `<span class="v">${text}</span>`;
  }
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (!value.length) return '[]';
    return `[\n${value.map((v) => inner + render(v, base, inner, undefined)).join(',\n')}\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (!entries.length) return '{}';
  const isTemplated = (value as Record<string, unknown>).templated === true;
  const members = entries.map(([k, v]) => `${inner}<span class="k">${escapeHtml(JSON.stringify(k))}</span>: ${render(v, base, inner, k, isTemplated)}`);
  return `{\n${members.join(',\n')}\n${indent}}`;
}

function linkTarget(href: string, base: string, templated: boolean): string | undefined {
  const path = sameOriginPath(href, base);
  if (path === undefined || !templated) return path;
  // `{?cursor}` / `{&a,b}` are optional query parts; a path variable (`{code}`) needs a value first.
  const expanded = path.replace(/\{[?&][^}]*\}/g, '');
  return expanded.includes('{') ? undefined : expanded;
}
