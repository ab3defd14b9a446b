// A record's form, built from its OpenAPI schemas: one widget per writable field, chosen by type
// (datetime, enum, reference, JSON, number, boolean, text), and the 422 `errors[]` shown at each field.
import { api, ApiError, collectionSchemas } from './api.js';
import { article, singular } from './labels.js';
import { baseType, cellText, dialog, field, fieldError, fill, h, isoToLocal, localToIso, problemBox, uid } from './widgets.js';

/** What kind of widget a property gets. */
function kindOf(schema, recordSchema) {
  if (recordSchema?.['x-restwell-reference']) return 'reference';
  if (Array.isArray(schema.enum)) return 'enum';
  const t = baseType(schema);
  if (t === 'string' && schema.format === 'date-time') return 'datetime';
  if (t === 'integer' || t === 'number') return t;
  if (t === 'boolean') return 'boolean';
  if (t === 'string') return 'string';
  return 'json';
}

/**
 * The form of a collection's record. `values` fills it (a record read, or nothing for a new one).
 * Returns `{ el, read(), showErrors(errors), set(values) }`; `read()` gives `{ body }` or `{ invalid }`.
 */
export function recordForm(collection, { input, record }, values = {}) {
  const props = input?.properties ?? {};
  const required = new Set(input?.required ?? []);
  const widgets = new Map();
  const el = h('div', { class: 'record-form' });
  for (const [name, schema] of Object.entries(props)) {
    const w = widget(name, schema, record?.properties?.[name], required.has(name));
    widgets.set(name, w);
    el.append(w.wrapper);
  }
  const set = (vals, defaults = false) => {
    for (const [name, w] of widgets) w.set(vals[name] !== undefined ? vals[name] : defaults ? props[name].default : null);
  };
  // A new record starts from the declared defaults.
  set(values, Object.keys(values).length === 0);
  return {
    el,
    set,
    read() {
      const body = {};
      let invalid = false;
      for (const [name, w] of widgets) {
        fieldError(w.wrapper, '');
        const r = w.get();
        if (r.error) {
          fieldError(w.wrapper, r.error);
          invalid = true;
        } else if (r.value !== undefined) body[name] = r.value;
      }
      return invalid ? { invalid: true } : { body };
    },
    /** 422 `errors[]`: `{ pointer: '/name', detail }` at the field; returns those no field showed. */
    showErrors(errors = []) {
      const rest = [];
      let first;
      for (const e of errors) {
        const name = String(e.pointer ?? e.field ?? '').replace(/^\//, '').split('/')[0];
        const w = widgets.get(name);
        if (w) {
          fieldError(w.wrapper, e.detail ?? e.message ?? 'invalid');
          first ??= w.wrapper.querySelector('input, select, textarea');
        } else rest.push(e);
      }
      first?.focus();
      return rest;
    },
  };
}

function widget(name, schema, recordSchema, required) {
  const kind = kindOf(schema, recordSchema);
  const nullable = !required;
  const label = `${name}${required ? ' (required)' : ''}`;
  const hintParts = [];
  const attrs = { name, required: required || undefined };
  let control;
  let get;
  let set;
  switch (kind) {
    case 'enum': {
      const values = schema.enum.filter((v) => v !== null);
      control = h('select', attrs, h('option', { value: '' }, nullable ? '(none)' : '(choose)'), values.map((v) => h('option', { value: v }, v)));
      get = () => ({ value: control.value === '' ? (nullable ? null : undefined) : control.value });
      set = (v) => (control.value = v ?? '');
      break;
    }
    case 'boolean': {
      control = h('select', attrs, h('option', { value: '' }, '(none)'), h('option', { value: 'true' }, 'true'), h('option', { value: 'false' }, 'false'));
      get = () => ({ value: control.value === '' ? (nullable ? null : undefined) : control.value === 'true' });
      set = (v) => (control.value = v === true ? 'true' : v === false ? 'false' : '');
      break;
    }
    case 'integer':
    case 'number': {
      control = h('input', { ...attrs, type: 'number', step: kind === 'integer' ? '1' : 'any', min: schema.minimum, max: schema.maximum, inputmode: kind === 'integer' ? 'numeric' : 'decimal' });
      get = () => {
        if (control.value === '') return { value: control.validity.badInput ? undefined : nullable ? null : undefined, error: control.validity.badInput ? 'must be a number' : undefined };
        const n = Number(control.value);
        if (!Number.isFinite(n) || (kind === 'integer' && !Number.isInteger(n))) return { error: `must be ${kind === 'integer' ? 'a whole number' : 'a number'}` };
        return { value: n };
      };
      set = (v) => (control.value = v ?? '');
      break;
    }
    case 'datetime': {
      control = h('input', { ...attrs, type: 'datetime-local', step: '0.001' });
      hintParts.push('Your local time; sent as UTC');
      get = () => {
        const iso = localToIso(control.value);
        if (iso === undefined) return { error: 'is not a date and time' };
        return { value: iso ?? (nullable ? null : undefined) };
      };
      set = (v) => (control.value = isoToLocal(v));
      break;
    }
    case 'json': {
      control = h('textarea', { ...attrs, rows: '4', spellcheck: 'false', class: 'mono' });
      hintParts.push('JSON: an object, array, string in quotes, number, true/false or null');
      get = () => {
        if (control.value.trim() === '') return { value: nullable ? null : undefined };
        try {
          return { value: JSON.parse(control.value) };
        } catch (err) {
          return { error: `is not valid JSON (${err.message})` };
        }
      };
      set = (v) => (control.value = v === null || v === undefined ? '' : JSON.stringify(v, null, 2));
      control.addEventListener('input', () => {
        const r = get();
        fieldError(wrapper, r.error ?? '');
      });
      break;
    }
    case 'reference': {
      const target = recordSchema['x-restwell-reference'];
      const integer = baseType(schema) === 'integer';
      control = h('input', { ...attrs, type: 'text', inputmode: integer ? 'numeric' : undefined, autocomplete: 'off' });
      hintParts.push(`The id of ${article(singular(target))} ${singular(target)}`);
      get = () => {
        const t = control.value.trim();
        if (t === '') return { value: nullable ? null : undefined };
        if (integer) {
          const n = Number(t);
          return Number.isInteger(n) ? { value: n } : { error: 'must be a record id (a whole number)' };
        }
        return { value: t };
      };
      set = (v) => (control.value = v ?? '');
      const pick = h('button', { type: 'button', class: 'small', onclick: async () => {
        const id = await pickRecord(target);
        if (id !== null && id !== undefined) control.value = String(id);
        control.focus();
      } }, `Find ${article(singular(target))} ${singular(target)}…`);
      const wrapper = field(label, control, { hint: hintParts.join('. '), name });
      control.after(pick);
      return { wrapper, get, set };
    }
    default: {
      const long = !schema.maxLength || schema.maxLength > 300;
      control = long ? h('textarea', { ...attrs, rows: '2', maxlength: schema.maxLength, minlength: schema.minLength }) : h('input', { ...attrs, type: 'text', maxlength: schema.maxLength, minlength: schema.minLength });
      get = () => ({ value: control.value === '' && nullable ? null : control.value === '' && required ? undefined : control.value });
      set = (v) => (control.value = v ?? '');
    }
  }
  if (schema.description) hintParts.unshift(schema.description);
  const wrapper = field(label, control, { hint: hintParts.join('. ') || undefined, name });
  return { wrapper, get, set };
}

/**
 * The reference picker: searches the target collection (by a text field, `[contains]`) and resolves
 * with the chosen record's id, or null.
 */
async function pickRecord(target) {
  const { input } = await collectionSchemas(target);
  const textField = Object.entries(input?.properties ?? {}).find(([, s]) => baseType(s) === 'string' && !s.format && !s.enum)?.[0];
  const q = h('input', { type: 'search', id: uid('pick') });
  const results = h('div', { class: 'pick-results', 'aria-live': 'polite' });
  let choose;
  const chosen = new Promise((r) => (choose = r));
  const search = async () => {
    const params = new URLSearchParams({ limit: '10' });
    if (q.value && textField) params.set(`${textField}[contains]`, q.value);
    try {
      const res = await api('GET', `/${target}?${params}`);
      const rows = res.body._embedded?.[target] ?? [];
      fill(results, rows.length ? h('ul', { class: 'pick-list' }, rows.map((r) => h('li', {}, h('button', { type: 'button', onclick: () => choose(r.id) }, `#${r.id}`, textField ? ` ${cellText(r[textField])}` : '')))) : h('p', {}, 'No match.'));
    } catch (err) {
      fill(results, problemBox(err instanceof ApiError ? err : { message: String(err) }));
    }
  };
  const form = h('form', { onsubmit: (e) => { e.preventDefault(); search(); } },
    h('label', { for: q.id }, textField ? `Search ${target} by ${textField}` : `Search ${target}`), h('div', { class: 'row' }, q, h('button', { type: 'submit' }, 'Search')), results);
  search();
  const closed = dialog(`Choose ${article(singular(target))} ${singular(target)}`, form, [{ label: 'Cancel', value: null }]);
  const id = await Promise.race([chosen, closed]);
  document.querySelector('dialog.dialog[open]')?.querySelector('.buttons button')?.click();
  return id;
}
