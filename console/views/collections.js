// Collections (from the API root's links) and a collection's records as a table: clickable paging
// (the server's next/prev links), sort by column, filters, sparse fields.
import { api, collectionSchemas } from '../api.js';
import { go, href } from '../router.js';
import { cellText, field, fill, h, problemBox, table } from '../widgets.js';

/** Links of the API root that are not collections. */
const NOT_COLLECTIONS = new Set(['self', 'events', 'webhook-endpoints', 'service-desc', 'service-doc', 'problem-types', 'console', 'curies']);

export async function homeView(main) {
  fill(main, h('h1', {}, 'Collections'), h('p', {}, 'Loading…'));
  try {
    const root = (await api('GET', '/')).body;
    const links = Object.entries(root._links ?? {}).filter(([rel, l]) => !NOT_COLLECTIONS.has(rel) && !l.templated && /^\/[^/?]+$/.test(l.href));
    fill(main,
      h('h1', {}, 'Collections'),
      h('ul', { class: 'collections' }, links.map(([rel, l]) => h('li', {}, h('a', { href: href(`/c/${l.href.slice(1)}`) }, rel), l.title ? h('span', { class: 'hint' }, ` — ${l.title}`) : null))),
      h('p', { class: 'hint' }, 'Also: ', h('a', { href: '/docs' }, 'API documentation'), ' · ', h('a', { href: '/openapi.json' }, 'OpenAPI document')));
  } catch (err) {
    fill(main, h('h1', {}, 'Collections'), problemBox(err));
  }
}

const OPS = [
  ['eq', '= equals'],
  ['ne', '≠ not equal'],
  ['lt', '< less than'],
  ['lte', '≤ at most'],
  ['gt', '> greater than'],
  ['gte', '≥ at least'],
  ['in', 'in (comma-separated)'],
  ['contains', 'contains'],
  ['startsWith', 'starts with'],
];

/** Query keys that are not filters. */
const CONTROL = new Set(['sort', 'fields', 'limit', 'cursor', 'total', 'q']);

export async function listView(main, { collection }, query) {
  const heading = h('h1', {}, collection);
  fill(main, heading, h('p', {}, 'Loading…'));
  let schemas;
  try {
    schemas = await collectionSchemas(collection);
  } catch {
    schemas = {};
  }
  const columns = ['id', ...Object.keys(schemas.input?.properties ?? {})];
  const apiQuery = new URLSearchParams(query);
  if (!apiQuery.has('limit')) apiQuery.set('limit', '20');
  let page;
  try {
    page = (await api('GET', `/${collection}?${apiQuery}`)).body;
  } catch (err) {
    fill(main, heading, toolbar(collection, schemas), filtersForm(collection, columns, query, schemas.listParams), problemBox(err));
    return;
  }
  const rows = page._embedded?.[collection] ?? [];
  const shown = query.get('fields') ? ['id', ...query.get('fields').split(',').filter((f) => f && f !== 'id')] : columns.length > 1 ? columns : Object.keys(rows[0] ?? { id: 1 }).filter((k) => k !== '_links');
  const sort = query.get('sort') ?? '';
  const sortHeader = (c) => {
    const dir = sort === c ? 'ascending' : sort === `-${c}` ? 'descending' : undefined;
    const next = new URLSearchParams(query);
    next.delete('cursor');
    next.set('sort', dir === 'ascending' ? `-${c}` : c);
    return h('a', { href: href(`/c/${collection}`, next), class: 'sort', 'aria-label': `${c}, sort ${dir === 'ascending' ? 'descending' : 'ascending'}`, 'data-sort': dir ?? 'none' }, c, dir === 'ascending' ? ' ▲' : dir === 'descending' ? ' ▼' : '');
  };
  const cols = shown.map((c) => ({
    label: c,
    key: c,
    cell: (r) => (c === 'id' ? h('a', { href: href(`/c/${collection}/${encodeURIComponent(r.id)}`) }, String(r.id)) : cellText(r[c])),
  }));
  const t = table(cols, rows, { caption: `${collection}: ${page.count ?? rows.length} on this page`, header: (c) => sortHeader(c.key) });
  // Keep aria-sort on the header cells for assistive technology.
  t.querySelectorAll('th').forEach((th, i) => {
    const c = shown[i];
    if (sort === c) th.setAttribute('aria-sort', 'ascending');
    else if (sort === `-${c}`) th.setAttribute('aria-sort', 'descending');
  });
  fill(main, heading, toolbar(collection, schemas), filtersForm(collection, columns, query, schemas.listParams), t, pager(collection, page));
}

function toolbar(collection, schemas) {
  return h('div', { class: 'toolbar' }, schemas.writable ? h('a', { class: 'button primary', href: href(`/c/${collection}/new`) }, `New ${collection} record`) : null);
}

/** Paging through the server's own links (the cursors are opaque). */
function pager(collection, page) {
  const link = (rel, label) => {
    const l = page._links?.[rel];
    if (!l) return h('span', { class: 'button disabled', 'aria-disabled': 'true' }, label);
    const q = new URL(l.href, location.origin).searchParams;
    return h('a', { class: 'button', rel, href: href(`/c/${collection}`, q) }, label);
  };
  return h('nav', { class: 'pager', 'aria-label': 'Pages' }, link('first', '« First'), link('prev', '‹ Previous'), link('next', 'Next ›'));
}

/**
 * The operators the API documents for a field (its `field[op]` query parameters), so the picker
 * offers what the server takes; the usual set when the document does not say.
 */
function opsFor(fieldName, listParams) {
  if (!listParams?.length) return OPS;
  const documented = new Set(listParams.map((p) => /^([^[]+)\[(\w+)\]$/.exec(p)).filter((m) => m && m[1] === fieldName).map((m) => m[2]));
  const known = OPS.filter(([op]) => op === 'eq' || documented.has(op));
  const more = [...documented].filter((op) => !OPS.some(([o]) => o === op)).map((op) => [op, op]);
  return [...known, ...more];
}

function filtersForm(collection, columns, query, listParams) {
  const active = [...query].filter(([k]) => !CONTROL.has(k));
  const fieldSel = h('select', { name: 'filter-field' }, columns.map((c) => h('option', { value: c }, c)));
  const opSel = h('select', { name: 'filter-op' });
  const fillOps = () => {
    const keep = opSel.value;
    fill(opSel, opsFor(fieldSel.value, listParams).map(([v, l]) => h('option', { value: v }, l)));
    if ([...opSel.options].some((o) => o.value === keep)) opSel.value = keep;
  };
  fieldSel.addEventListener('change', fillOps);
  fillOps();
  const value = h('input', { type: 'text', name: 'filter-value' });
  const fields = h('input', { type: 'text', name: 'fields', value: query.get('fields') ?? '', placeholder: columns.slice(1).join(',') });
  const limit = h('select', { name: 'limit' }, ['5', '10', '20', '50', '100'].map((n) => h('option', { value: n, selected: (query.get('limit') ?? '20') === n }, n)));
  const submit = (mutate) => (e) => {
    e.preventDefault();
    const next = new URLSearchParams(query);
    next.delete('cursor');
    mutate(next);
    go(`/c/${collection}`, next);
  };
  const addForm = h('form', { class: 'filters', 'aria-label': 'Add a filter', onsubmit: submit((q) => {
    const key = opSel.value === 'eq' ? fieldSel.value : `${fieldSel.value}[${opSel.value}]`;
    q.append(key, value.value);
  }) }, field('Field', fieldSel), field('Operator', opSel), field('Value', value), h('button', { type: 'submit' }, 'Add filter'));
  const viewForm = h('form', { class: 'filters', 'aria-label': 'Columns and page size', onsubmit: submit((q) => {
    if (fields.value.trim()) q.set('fields', fields.value.replace(/\s+/g, ''));
    else q.delete('fields');
    q.set('limit', limit.value);
  }) }, field('Fields (sparse, comma-separated)', fields), field('Per page', limit), h('button', { type: 'submit' }, 'Apply'));
  const chips = active.length
    ? h('ul', { class: 'chips', 'aria-label': 'Active filters' }, active.map(([k, v], i) => h('li', {}, h('span', {}, `${k} = ${v}`), ' ', h('button', { type: 'button', class: 'small', 'aria-label': `Remove filter ${k} = ${v}`, onclick: () => {
        const next = new URLSearchParams();
        let n = 0;
        for (const [kk, vv] of query) if (CONTROL.has(kk) ? kk !== 'cursor' : n++ !== i) next.append(kk, vv);
        go(`/c/${collection}`, next);
      } }, '×'))))
    : null;
  // A full-text `q=` search, when the API documents one for this collection.
  const search = listParams?.includes('q') ? (() => {
    const q = h('input', { type: 'search', name: 'q', value: query.get('q') ?? '' });
    return h('form', { class: 'filters', role: 'search', 'aria-label': `Search ${collection}`, onsubmit: submit((next) => (q.value ? next.set('q', q.value) : next.delete('q'))) }, field('Search', q), h('button', { type: 'submit' }, 'Search'));
  })() : null;
  return h('details', { class: 'query', open: active.length || query.has('fields') || query.has('q') ? true : undefined }, h('summary', {}, `Filter and columns${active.length ? ` (${active.length} filter${active.length > 1 ? 's' : ''})` : ''}`), search, chips, addForm, viewForm);
}

