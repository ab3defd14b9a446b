import type { ResourceDefinition } from '../core/resource.js';
import { LIST_CONTROLS, OPERATORS } from '../store/list-query.js';
import { escapeHtml } from './html.js';

/**
 * A GET form over a collection: filter rows (field, operator, value), sort and limit. It is a plain
 * form: each value input is named `field[op]` (or `field` for eq) when rendered; the browse script
 * renames it when its field or operator changes and leaves out empty inputs. Its limit goes up to
 * `maxLimit`, the largest the server's listings accept, so the browser never offers a page size the
 * server refuses.
 */
export function renderQueryForm(resource: ResourceDefinition, query: URLSearchParams, maxLimit?: number): string {
  const names = ['id', ...resource.fields.filter((f) => f.type !== 'json').map((f) => f.name), 'createdAt', 'updatedAt'];
  const filters: Array<[string, string, string]> = [];
  for (const [key, value] of query) {
    if (LIST_CONTROLS.has(key)) continue;
    const m = /^([^[\]]+)(?:\[([A-Za-z]+)\])?$/.exec(key);
    if (m) filters.push([m[1], m[2] ?? 'eq', value]);
  }
  filters.push([resource.fields[0]?.name ?? 'id', 'eq', '']);
  const rows = filters.map(([field, op, value], i) => filterRow(names, field, op, value, i)).join('\n');
  const sort = query.get('sort') ?? '';
  const sortOptions = [`<option value="">(default: id)</option>`, ...names.flatMap((n) => [sortOption(n, `${n} ↑`, sort), sortOption(`-${n}`, `${n} ↓`, sort)])].join('');
  const fields = query.get('fields');
  return `<details class="rw-query"${filters.length > 1 || query.has('sort') ? ' open' : ''}><summary>Filter and sort</summary>
<form method="get" action="/${escapeHtml(resource.name)}" class="rw-query-form">
${rows}
<p><label for="q-sort">sort</label> <select id="q-sort" name="sort" data-optional>${sortOptions}</select>
<label for="q-limit">limit</label> <input id="q-limit" name="limit" type="number" min="1"${maxLimit ? ` max="${maxLimit}"` : ''} step="1" data-optional value="${escapeHtml(query.get('limit') ?? '')}">
${fields !== null ? `<input type="hidden" name="fields" value="${escapeHtml(fields)}">` : ''}<button type="submit">Apply</button> <a href="/${escapeHtml(resource.name)}">reset</a></p>
</form></details>`;
}

function filterRow(names: string[], field: string, op: string, value: string, i: number): string {
  const fieldSelect = names.map((n) => `<option${n === field ? ' selected' : ''}>${escapeHtml(n)}</option>`).join('');
  const opSelect = OPERATORS.map((o) => `<option${o === op ? ' selected' : ''}>${o}</option>`).join('');
  const name = op === 'eq' ? field : `${field}[${op}]`;
  return `<p class="rw-filter"><label for="q-field-${i}">filter</label> <select id="q-field-${i}" data-filter-field aria-label="field">${fieldSelect}</select>
<select data-filter-op aria-label="operator">${opSelect}</select>
<input data-filter-value data-optional aria-label="value" name="${escapeHtml(name)}" value="${escapeHtml(value)}"></p>`;
}

function sortOption(value: string, label: string, current: string): string {
  return `<option value="${escapeHtml(value)}"${value === current ? ' selected' : ''}>${escapeHtml(label)}</option>`;
}
