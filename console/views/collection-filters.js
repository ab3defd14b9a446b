// A list's query controls, always in view: the `q=` search box, each active filter as a removable
// chip, and "Add filter" (field, operator, value) in the list dialect the API documents.
import { go } from '../router.js';
import { field, fill, h } from '../widgets.js';

/** The list URL's parameters that are not filters (as the server's list dialect names them). */
export const LIST_CONTROLS = new Set(['limit', 'sort', 'fields', 'cursor', 'total', 'q', 'expand']);

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
  ['icontains', 'contains (any case)'],
  ['istartsWith', 'starts with (any case)'],
];
const SYMBOL = { eq: '=', ne: '≠', lt: '<', lte: '≤', gt: '>', gte: '≥' };

/**
 * The operators the API documents for a field (its `field[op]` query parameters), so the picker
 * offers what the server takes; the usual set when the document does not say.
 */
function opsFor(fieldName, listParams) {
  if (!listParams?.length) return OPS.slice(0, 9);
  const documented = new Set(listParams.map((p) => /^([^[]+)\[(\w+)\]$/.exec(p)).filter((m) => m && m[1] === fieldName).map((m) => m[2]));
  const known = OPS.filter(([op]) => op === 'eq' || documented.has(op));
  const more = [...documented].filter((op) => !OPS.some(([o]) => o === op)).map((op) => [op, op]);
  return [...known, ...more];
}

/** A filter as people read it: `name = Hero`, `name starts with Hero`. */
function chipText(key, value) {
  const m = /^([^[]+)(?:\[(\w+)\])?$/.exec(key);
  const [fieldName, op = 'eq'] = m ? [m[1], m[2]] : [key];
  const label = SYMBOL[op] ?? OPS.find(([o]) => o === op)?.[1] ?? op;
  return `${fieldName} ${label} ${value}`;
}

/** Search, chips and the add-filter form of `collection`'s list. */
export function filterBar(collection, columns, query, listParams) {
  const to = (mutate) => {
    const next = new URLSearchParams(query);
    next.delete('cursor');
    mutate(next);
    go(`/c/${collection}`, next);
  };
  const active = [...query].filter(([k]) => !LIST_CONTROLS.has(k));

  // A full-text `q=` search, when the API documents one for this collection.
  let search = null;
  if (listParams?.includes('q')) {
    const q = h('input', { type: 'search', name: 'q', value: query.get('q') ?? '', placeholder: `Search ${collection}…` });
    search = h('form', { class: 'coll-search', role: 'search', 'aria-label': `Search ${collection}`, onsubmit: (e) => {
      e.preventDefault();
      to((next) => (q.value ? next.set('q', q.value) : next.delete('q')));
    } }, field(`Search ${collection}`, q), h('button', { type: 'submit' }, 'Search'));
  }

  const chips = [];
  if (query.get('q')) chips.push(h('li', {}, h('span', {}, `search: ${query.get('q')}`), h('button', { type: 'button', class: 'chip-x', 'aria-label': `Remove search ${query.get('q')}`, onclick: () => to((n) => n.delete('q')) }, '×')));
  active.forEach(([k, v], i) => {
    chips.push(h('li', {}, h('span', {}, chipText(k, v)), h('button', { type: 'button', class: 'chip-x', 'aria-label': `Remove filter ${chipText(k, v)}`, onclick: () => {
      const next = new URLSearchParams();
      let n = 0;
      for (const [kk, vv] of query) if (LIST_CONTROLS.has(kk) ? kk !== 'cursor' : n++ !== i) next.append(kk, vv);
      go(`/c/${collection}`, next);
    } }, '×')));
  });

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
  const add = h('form', { class: 'filters', 'aria-label': 'Add a filter', onsubmit: (e) => {
    e.preventDefault();
    const key = opSel.value === 'eq' ? fieldSel.value : `${fieldSel.value}[${opSel.value}]`;
    to((next) => next.append(key, value.value));
  } }, field('Field', fieldSel), field('Operator', opSel), field('Value', value), h('button', { type: 'submit' }, 'Add filter'));

  return h('section', { class: 'coll-query', 'aria-label': 'Search and filters' },
    search,
    chips.length ? h('ul', { class: 'chips', 'aria-label': 'Active filters' }, chips) : null,
    add);
}
