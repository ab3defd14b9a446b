import type { FieldDefinition, ResourceDefinition } from '../core/resource.js';
import { escapeHtml, sameOriginPath } from './html.js';
import { renderJson } from './json-view.js';
import { layout } from './layout.js';
import { renderQueryForm } from './query-form.js';
import { renderRecordForm } from './record-form.js';

/** What the browsable page of a representation is built from. */
export interface PageInput {
  /** The request's path and query: the page's title. */
  title: string;
  /** The representation (HAL). */
  body: Record<string, unknown>;
  /** This server's base URL, so absolute same-origin hrefs become links too. */
  base: string;
  /** The resource whose collection or record this is, when it is one: the page then has forms. */
  resource?: ResourceDefinition;
  kind?: 'collection' | 'record';
  /** The largest `limit` the server's listings accept: the filter form's limit field stops there. */
  maxLimit?: number;
  /** The record's ETag (of its JSON representation, which the browse script's writes ask for). */
  etag?: string;
  /** The id type of a reference field's target. */
  idTypeOf?: (field: FieldDefinition) => ResourceDefinition['idType'];
}

type Links = Record<string, { href?: unknown; title?: unknown; templated?: unknown } | Array<{ href?: unknown }>>;

/**
 * The browsable HTML view of a JSON representation, like Django REST Framework's: the same data
 * with every same-origin `href` a link, the page links (first, prev, next) as a pager, and on a
 * collection or record of a resource the forms that write to it and a filter form.
 */
export function renderPage(input: PageInput): string {
  const { body, base, resource, kind } = input;
  const links = (body._links ?? {}) as Links;
  const parts: string[] = [`<h1>${escapeHtml(input.title)}</h1>`];
  const query = new URLSearchParams(input.title.includes('?') ? input.title.slice(input.title.indexOf('?') + 1) : '');
  if (resource && kind === 'collection') parts.push(renderQueryForm(resource, query, input.maxLimit));
  parts.push(pager(links, base), linkTable(links, base), `<h2>Representation</h2><pre>${renderJson(body, base)}</pre>`, pager(links, base));
  const idTypeOf = input.idTypeOf ?? (() => 'integer');
  if (resource && kind === 'collection') parts.push(renderRecordForm(resource, { idTypeOf }));
  if (resource && kind === 'record' && body.id !== undefined) {
    parts.push(renderRecordForm(resource, { record: body, recordPath: hrefOf(links.self) ?? input.title, etag: input.etag, idTypeOf }));
  }
  return layout(input.title, parts.join('\n'));
}

function hrefOf(link: Links[string] | undefined): string | undefined {
  const one = Array.isArray(link) ? link[0] : link;
  return typeof one?.href === 'string' ? one.href : undefined;
}

/** First, previous and next as a pager, for list pages. */
function pager(links: Links, base: string): string {
  const items = (['first', 'prev', 'next'] as const)
    .map((rel) => {
      const href = hrefOf(links[rel]);
      const path = href === undefined ? undefined : sameOriginPath(href, base);
      const label = { first: '⇤ first', prev: '← previous', next: 'next →' }[rel];
      return path === undefined ? '' : `<a href="${escapeHtml(path)}" rel="${rel}">${label}</a>`;
    })
    .filter(Boolean);
  return items.length ? `<nav class="rw-pager" aria-label="pages">${items.join('')}</nav>` : '';
}

/** Every link of `_links`: same-origin ones clickable, templated ones as a small form to fill in. */
function linkTable(links: Links, base: string): string {
  const rows: string[] = [];
  for (const [rel, value] of Object.entries(links)) {
    for (const link of [value].flat()) {
      if (typeof link?.href !== 'string') continue;
      const path = sameOriginPath(link.href, base);
      const title = typeof (link as { title?: unknown }).title === 'string' ? ` <small>${escapeHtml(String((link as { title: string }).title))}</small>` : '';
      let cell = `<code>${escapeHtml(link.href)}</code>`;
      if (path !== undefined && (link as { templated?: unknown }).templated === true) cell = templateForm(path);
      else if (path !== undefined) cell = `<a href="${escapeHtml(path)}">${escapeHtml(link.href)}</a>`;
      rows.push(`<tr><th scope="row">${escapeHtml(rel)}</th><td>${cell}${title}</td></tr>`);
    }
  }
  return rows.length ? `<h2>Links</h2><table class="rw-links">${rows.join('')}</table>` : '';
}

/** A templated link (RFC 6570, simple `{var}` expressions) as a GET form with one input per variable. */
function templateForm(template: string): string {
  const vars = [...new Set([...template.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((m) => m[1]))];
  const inputs = vars.map((v) => `<input name="${escapeHtml(v)}" aria-label="${escapeHtml(v)}" placeholder="${escapeHtml(v)}" required>`).join(' ');
  return `<form class="rw-template" data-template="${escapeHtml(template)}"><code>${escapeHtml(template)}</code> ${inputs} <button type="submit">Go</button></form>`;
}
