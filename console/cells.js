// Compact table cells: JSON on one line (the whole of it on hover), datetimes as "3 min ago" in a
// <time> with the exact time on hover, references as the referenced record's name linking to it,
// long text cut short. The names of referenced records come in one list request per target.
import { api } from './api.js';
import { href } from './router.js';
import { baseType, h } from './widgets.js';

/** Cells show at most this many characters; the rest is in the title. */
const MAX_CHARS = 60;

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
const STEPS = [['year', 31536000], ['month', 2592000], ['week', 604800], ['day', 86400], ['hour', 3600], ['minute', 60], ['second', 1]];

/** "3 minutes ago", "in 2 days": the largest unit that fits. */
export function ago(date, now = Date.now()) {
  const seconds = Math.round((date.getTime() - now) / 1000);
  for (const [unit, size] of STEPS) {
    if (Math.abs(seconds) >= size || unit === 'second') return relative.format(Math.trunc(seconds / size), unit);
  }
  return '';
}

/** A datetime: relative text in <time datetime>, the exact local and UTC time on hover. */
export function timeCell(iso) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return String(iso);
  return h('time', { datetime: d.toISOString(), title: `${d.toLocaleString()} (${d.toISOString()})` }, ago(d));
}

/** Text cut at MAX_CHARS with an ellipsis, the full text in the title. */
export function clipped(text, cls = '') {
  if ([...text].length <= MAX_CHARS) return cls ? h('span', { class: cls }, text) : text;
  return h('span', { class: `clip ${cls}`.trim(), title: text }, `${[...text].slice(0, MAX_CHARS - 1).join('')}…`);
}

/** The kind of a column, from the record schema's property. */
export function columnKind(name, schema) {
  if (!schema) return name === 'createdAt' || name === 'updatedAt' ? 'datetime' : 'plain';
  if (schema['x-restwell-reference']) return 'reference';
  if (schema.format === 'date-time') return 'datetime';
  const t = baseType(schema);
  if (t === 'object' || t === 'array' || t === undefined) return 'json';
  return 'plain';
}

/**
 * One cell. `names` maps a reference column's target to a Map of id → the record's display name.
 */
export function renderCell(value, kind, { target, names } = {}) {
  if (value === null || value === undefined) return h('span', { class: 'empty', 'aria-label': 'empty' }, '—');
  if (kind === 'reference' && target) {
    const name = names?.get(target)?.get(String(value));
    return h('a', { href: href(`/c/${target}/${encodeURIComponent(value)}`), title: `${target} #${value}` }, name ? clipped(String(name)) : `#${value}`);
  }
  if (kind === 'datetime' && typeof value === 'string') return timeCell(value);
  if (typeof value === 'object') return clipped(JSON.stringify(value), 'json');
  return clipped(String(value));
}

/** The field that names a record of a collection: `name`, `title`, `label`, else its first plain text field. */
export function nameField(input) {
  const props = input?.properties ?? {};
  for (const n of ['name', 'title', 'label', 'subject']) if (props[n] && baseType(props[n]) === 'string') return n;
  return Object.entries(props).find(([, s]) => baseType(s) === 'string' && !s.format && !s.enum)?.[0];
}

/**
 * The names of the records `rows` reference, one request per target collection
 * (`id[in]=…&fields=id,name`), never one per row. A target the tab may not read keeps plain ids.
 * `refs` is `[{ column, target, field }]`, `field` being the target's name field.
 */
export async function referenceNames(rows, refs) {
  const names = new Map();
  const byTarget = new Map();
  for (const r of refs) {
    if (!r.field) continue;
    const ids = byTarget.get(r.target) ?? { field: r.field, ids: new Set() };
    for (const row of rows) if (row[r.column] !== null && row[r.column] !== undefined) ids.ids.add(String(row[r.column]));
    byTarget.set(r.target, ids);
  }
  await Promise.all([...byTarget].map(async ([target, { field, ids }]) => {
    if (!ids.size) return;
    const q = new URLSearchParams({ 'id[in]': [...ids].join(','), fields: `id,${field}`, limit: String(Math.min(ids.size, 100)) });
    try {
      const res = await api('GET', `/${target}?${q}`);
      names.set(target, new Map((res.body._embedded?.[target] ?? []).map((rec) => [String(rec.id), rec[field]])));
    } catch {
      // Not readable (or gone): the cells show the ids.
    }
  }));
  return names;
}
