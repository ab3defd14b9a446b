// The collections as a table editor: a sidebar of collections with their record counts, and a
// collection's records as a table with its total, a search box, filter chips, a remembered column
// picker, compact cells, paging by the server's own links, and only the actions the token may take.
import { api, collectionSchemas } from '../api.js';
import { columnKind, nameField, referenceNames, renderCell } from '../cells.js';
import { countOf, noteCount } from '../counts.js';
import { singular } from '../labels.js';
import { rightsOf } from '../rights.js';
import { go, href } from '../router.js';
import { field, fill, h, problemBox, table } from '../widgets.js';
import { filterBar, LIST_CONTROLS } from './collection-filters.js';

/** Links of the API root that are not collections. */
const NOT_COLLECTIONS = new Set(['self', 'events', 'webhook-endpoints', 'service-desc', 'service-doc', 'problem-types', 'console', 'curies', 'me', 'metrics', 'healthz', 'readyz']);

let rootLinks;
/** The collections the API root links to: `[{ name, title }]` (the root is fetched once per page load). */
async function collections() {
  rootLinks ??= api('GET', '/').then((r) => r.body, (err) => {
    rootLinks = undefined;
    throw err;
  });
  const root = await rootLinks;
  return Object.entries(root._links ?? {})
    .filter(([rel, l]) => !NOT_COLLECTIONS.has(rel) && !l.templated && l.href === `/${rel}`)
    .map(([name, l]) => ({ name, title: l.title && l.title !== name ? l.title : undefined }));
}

/** A count that arrives later: "…" until it does, "—" when the collection cannot be read. */
function countBadge(name) {
  const el = h('span', { class: 'count' }, '…');
  countOf(name).then((n) => fill(el, n === null ? '—' : String(n), h('span', { class: 'sr-only' }, n === 1 ? ' record' : ' records')));
  return el;
}

/** The sidebar: every collection with its count; the current one marked. */
function sidebar(list, current) {
  return h('nav', { class: 'coll-side', 'aria-label': 'Collections' },
    h('h2', { class: 'coll-side-title' }, h('a', { href: href('/c') }, 'Collections')),
    h('ul', {}, list.map(({ name }) => h('li', {}, h('a', { href: href(`/c/${name}`), 'aria-current': name === current ? 'page' : undefined }, h('span', { class: 'name' }, name), ' ', countBadge(name))))));
}

/** `#/c`: every collection as a card with its count, description and the actions the token may take. */
export async function homeView(main) {
  fill(main, h('h1', {}, 'Collections'), h('p', {}, 'Loading…'));
  let list;
  try {
    list = await collections();
  } catch (err) {
    fill(main, h('h1', {}, 'Collections'), problemBox(err));
    return;
  }
  const rights = await Promise.all(list.map(({ name }) => rightsOf(name)));
  fill(main,
    h('h1', {}, 'Collections'),
    h('ul', { class: 'coll-cards' }, list.map(({ name, title }, i) => h('li', { class: 'card' },
      h('h2', {}, h('a', { href: href(`/c/${name}`) }, name)),
      rights[i].read ? h('p', { class: 'coll-count' }, countBadge(name)) : h('p', { class: 'hint' }, 'Not readable with this token: ', h('a', { href: '#/signin' }, 'sign in'), ' with one that may.'),
      title ? h('p', { class: 'hint' }, title) : null,
      rights[i].create ? h('a', { class: 'button small', href: href(`/c/${name}/new`) }, `New ${singular(name)}`) : null))),
    h('p', { class: 'hint' }, 'Also: ', h('a', { href: '/docs' }, 'API documentation'), ' · ', h('a', { href: '/openapi.json' }, 'OpenAPI document')));
}

/** The columns shown, remembered per collection in localStorage. */
const columnsKey = (collection) => `restwell.columns.${collection}`;
function savedColumns(collection) {
  try {
    const v = JSON.parse(localStorage.getItem(columnsKey(collection)) ?? 'null');
    return Array.isArray(v) ? v : null;
  } catch {
    return null;
  }
}

export async function listView(main, { collection }, query) {
  const heading = h('h1', {}, collection);
  fill(main, heading, h('p', {}, 'Loading…'));
  const [schemas, rights, list] = await Promise.all([
    collectionSchemas(collection).catch(() => ({})),
    rightsOf(collection),
    collections().catch(() => []),
  ]);
  const recordProps = Object.fromEntries(Object.entries(schemas.record?.properties ?? {}).filter(([k]) => !k.startsWith('_')));
  const inputNames = Object.keys(schemas.input?.properties ?? {});
  const allColumns = ['id', ...new Set([...inputNames, ...Object.keys(recordProps).filter((k) => k !== 'id')])];
  const apiQuery = new URLSearchParams(query);
  if (!apiQuery.has('limit')) apiQuery.set('limit', '20');
  apiQuery.set('total', 'true');
  const layout = (...content) => fill(main, h('div', { class: 'coll-layout' }, sidebar(list, collection), h('div', { class: 'coll-main' }, heading, ...content)));
  const filters = filterBar(collection, allColumns, query, schemas.listParams);
  let page;
  try {
    page = (await api('GET', `/${collection}?${apiQuery}`)).body;
  } catch (err) {
    layout(filters, problemBox(err));
    return;
  }
  const rows = page._embedded?.[collection] ?? [];
  const filtered = [...query.keys()].some((k) => !LIST_CONTROLS.has(k) || k === 'q');
  if (!filtered && page.total !== undefined) noteCount(collection, page.total);

  // The columns: a sparse `fields=` in the URL wins; else those picked before; else the writable ones.
  const fromUrl = query.get('fields') ? ['id', ...query.get('fields').split(',').filter((f) => f && f !== 'id')] : null;
  const defaults = inputNames.length ? ['id', ...inputNames] : Object.keys(rows[0] ?? { id: 1 }).filter((k) => !k.startsWith('_'));
  let shown = fromUrl ?? (savedColumns(collection)?.filter((c) => allColumns.includes(c)) || defaults);
  if (!shown.includes('id')) shown = ['id', ...shown];

  // References: the names of the records they point at, one request per target collection.
  const refs = await Promise.all(Object.entries(recordProps).filter(([, s]) => s['x-restwell-reference']).map(async ([column, s]) => {
    const target = s['x-restwell-reference'];
    const targetSchemas = await collectionSchemas(target).catch(() => ({}));
    return { column, target, field: nameField(targetSchemas.input) };
  }));
  const names = await referenceNames(rows, refs);
  const targets = Object.fromEntries(refs.map((r) => [r.column, r.target]));

  const sort = query.get('sort') ?? '';
  const sortHeader = (c) => {
    const dir = sort === c ? 'ascending' : sort === `-${c}` ? 'descending' : undefined;
    const next = new URLSearchParams(query);
    next.delete('cursor');
    next.set('sort', dir === 'ascending' ? `-${c}` : c);
    return h('a', { href: href(`/c/${collection}`, next), class: 'sort', 'aria-label': `${c}, sort ${dir === 'ascending' ? 'descending' : 'ascending'}`, 'data-sort': dir ?? 'none' }, c, dir === 'ascending' ? ' ▲' : dir === 'descending' ? ' ▼' : '');
  };
  const total = page.total ?? rows.length;
  const one = singular(collection);
  const countText = filtered ? `${total} matching ${total === 1 ? one : collection}` : `${total} ${total === 1 ? one : collection}`;
  const tableBox = h('div');
  const renderTable = () => {
    const cols = shown.map((c) => ({
      label: c,
      key: c,
      cell: (r) => (c === 'id' ? h('a', { href: href(`/c/${collection}/${encodeURIComponent(r.id)}`) }, String(r.id)) : renderCell(r[c], columnKind(c, recordProps[c]), { target: targets[c], names })),
    }));
    const t = table(cols, rows, { caption: `${collection}: ${rows.length} of ${total} shown`, header: (c) => sortHeader(c.key) });
    // Keep aria-sort on the header cells for assistive technology.
    t.querySelectorAll('th').forEach((th, i) => {
      const c = shown[i];
      if (sort === c) th.setAttribute('aria-sort', 'ascending');
      else if (sort === `-${c}`) th.setAttribute('aria-sort', 'descending');
    });
    fill(tableBox, t);
  };
  renderTable();
  const picker = columnPicker(collection, allColumns, () => shown, (next) => {
    shown = next;
    renderTable();
  });
  layout(
    h('p', { class: 'coll-total', id: 'list-total' }, countText),
    h('div', { class: 'toolbar' },
      rights.create ? h('a', { class: 'button primary', href: href(`/c/${collection}/new`) }, `New ${one}`) : null,
      picker,
      perPage(collection, query)),
    filters,
    tableBox,
    pager(collection, page, query));
}

/** Columns: a checkbox per column in a disclosure; the choice is remembered for the collection. */
function columnPicker(collection, all, getShown, onChange) {
  const summary = h('summary', { class: 'button' }, 'Columns');
  const boxes = all.map((c) => {
    const box = h('input', { type: 'checkbox', name: 'column', value: c, checked: getShown().includes(c), disabled: c === 'id' });
    box.addEventListener('change', () => {
      const next = all.filter((n) => n === 'id' || boxesEl.querySelector(`input[value="${CSS.escape(n)}"]`).checked);
      localStorage.setItem(columnsKey(collection), JSON.stringify(next));
      onChange(next);
    });
    return h('label', { class: 'check' }, box, ` ${c}`);
  });
  const boxesEl = h('fieldset', {}, h('legend', {}, 'Show columns'), boxes);
  return h('details', { class: 'columns-picker' }, summary, h('div', { class: 'popover' }, boxesEl));
}

/** Page size: a select that reloads the list from its first page. */
function perPage(collection, query) {
  const sel = h('select', { name: 'limit' }, ['5', '10', '20', '50', '100'].map((n) => h('option', { value: n, selected: (query.get('limit') ?? '20') === n }, n)));
  sel.addEventListener('change', () => {
    const next = new URLSearchParams(query);
    next.delete('cursor');
    next.set('limit', sel.value);
    go(`/c/${collection}`, next);
  });
  return h('div', { class: 'per-page' }, field('Per page', sel));
}

/** Paging through the server's own links (the cursors are opaque); "« First" is off on the first page. */
function pager(collection, page, query) {
  const link = (rel, label, off) => {
    const l = page._links?.[rel];
    if (!l || off) return h('a', { class: 'button disabled', role: 'link', 'aria-disabled': 'true' }, label);
    const q = new URL(l.href, location.origin).searchParams;
    q.delete('total');
    return h('a', { class: 'button', rel, href: href(`/c/${collection}`, q) }, label);
  };
  const first = !query.has('cursor');
  return h('nav', { class: 'pager', 'aria-label': 'Pages' }, link('first', '« First', first), link('prev', '‹ Previous', first), link('next', 'Next ›'));
}
