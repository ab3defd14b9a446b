// DOM building blocks. API data only ever reaches the page as text (textContent, attribute values
// set through the DOM), never as HTML, so a record holding "<script>" shows exactly that.

/** `h('button', { type: 'button', onclick }, 'Save')`: an element with properties/attributes and children. */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props ?? {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else if (k === 'value') el.value = v;
    else if (k === 'checked' || k === 'selected' || k === 'disabled') el[k] = Boolean(v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** Replaces an element's content. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

let ids = 0;
/** A unique element id (for label/aria wiring). */
export const uid = (p = 'f') => `${p}-${++ids}`;

/** A value as short text for a table cell. */
export function cellText(v) {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** Pretty JSON (or the text itself) in a <pre>, focusable so a keyboard can scroll it. */
export function pre(value, label) {
  return h('pre', { class: 'json', tabindex: '0', 'aria-label': label }, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
}

/** A readable error: the problem's title, detail and status, with a link to its documentation. */
export function problemBox(err, extra) {
  const p = err?.problem ?? { title: 'Something went wrong', detail: String(err?.message ?? err) };
  const box = h(
    'div',
    { class: 'problem', role: 'alert' },
    h('strong', {}, p.title || 'Error'),
    p.status ? h('span', { class: 'code' }, ` (${p.status})`) : null,
    p.detail ? h('p', {}, p.detail) : null,
    p.type && /^https?:|^\//.test(p.type) ? h('p', {}, h('a', { href: p.type, target: '_blank', rel: 'noopener' }, 'About this error')) : null,
    err?.status === 401 ? h('p', {}, 'This needs a token: ', h('a', { href: '#/signin' }, 'sign in')) : null,
    err?.status === 403 ? h('p', {}, 'Your token lacks a scope this needs.') : null,
    extra,
  );
  return box;
}

/** Announces a short message in the status line (a live region). */
let saidAt = -Infinity;
let carried = false;
export function say(text) {
  saidAt = text ? performance.now() : -Infinity;
  carried = false;
  const el = document.getElementById('status');
  fill(el, text);
  el.classList.toggle('shown', Boolean(text));
}

/** A table in its own scrolling box (pages never scroll sideways). */
export function table(columns, rows, { caption, header } = {}) {
  return h(
    'div',
    { class: 'table-wrap', tabindex: '0', role: 'region', 'aria-label': caption ?? 'Table' },
    h(
      'table',
      {},
      caption ? h('caption', {}, caption) : null,
      h('thead', {}, h('tr', {}, columns.map((c) => h('th', { scope: 'col' }, header ? header(c) : c.label ?? c)))),
      h(
        'tbody',
        {},
        rows.length ? rows.map((r) => h('tr', {}, columns.map((c) => h('td', {}, c.cell ? c.cell(r) : cellText(r[c.key ?? c]))))) : h('tr', {}, h('td', { colspan: columns.length }, 'Nothing here yet.')),
      ),
    ),
  );
}

/** A definition list of a record's members. */
export function members(obj, render = (k, v) => cellText(v)) {
  return h('dl', { class: 'members' }, Object.entries(obj).filter(([k]) => k !== '_links' && k !== '_embedded').map(([k, v]) => [h('dt', {}, k), h('dd', {}, render(k, v))]));
}

/**
 * A modal dialog (native <dialog>: focus moves in, Tab stays in, Escape closes). Resolves with the
 * value of the button pressed, or null when dismissed; focus returns where it was.
 */
export function dialog(title, body, buttons = [{ label: 'Close', value: null }]) {
  return new Promise((resolve) => {
    const back = document.activeElement;
    const titleId = uid('dlg');
    const d = h('dialog', { 'aria-labelledby': titleId, class: 'dialog' });
    const done = (v) => {
      d.close();
      d.remove();
      back?.focus?.();
      resolve(v);
    };
    fill(
      d,
      h('h2', { id: titleId }, title),
      h('div', { class: 'dialog-body' }, body),
      h('div', { class: 'buttons' }, buttons.map((b) => h('button', { type: 'button', class: b.class ?? '', onclick: () => done(b.value), autofocus: b.autofocus }, b.label))),
    );
    // The rest of the page is inert while the dialog is open; Tab also cycles inside it rather than
    // leaving for the browser's own controls.
    d.addEventListener('keydown', (e) => {
      if (e.key !== 'Tab') return;
      const focusable = [...d.querySelectorAll('button, [href], input, select, textarea, [tabindex]:not([tabindex="-1"])')].filter((el) => !el.disabled && el.offsetParent !== null);
      if (!focusable.length) return;
      const first = focusable[0];
      const last = focusable[focusable.length - 1];
      if (e.shiftKey && document.activeElement === first) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && document.activeElement === last) {
        e.preventDefault();
        first.focus();
      }
    });
    d.addEventListener('cancel', (e) => {
      e.preventDefault();
      done(null);
    });
    document.body.append(d);
    d.showModal();
  });
}

/** Asks before something that cannot be undone; resolves true when confirmed. */
export async function confirmDialog(title, text, action = 'Delete') {
  const v = await dialog(title, h('p', {}, text), [
    { label: 'Cancel', value: false, autofocus: true },
    { label: action, value: true, class: 'danger' },
  ]);
  return v === true;
}

/** A secret shown once, with a copy button. */
export function secretBox(label, value) {
  const id = uid('secret');
  const out = h('output', { id, class: 'secret' }, value);
  const copy = h('button', { type: 'button', onclick: async () => {
    try {
      await navigator.clipboard.writeText(value);
      copy.textContent = 'Copied';
    } catch {
      // Clipboard access can be refused (insecure origin, permissions): select the text instead.
      getSelection().selectAllChildren(out);
      copy.textContent = 'Selected: press Ctrl+C';
    }
  } }, 'Copy');
  return h('div', { class: 'secret-box' }, h('label', { for: id }, label), out, copy, h('p', { class: 'hint' }, 'Shown once: copy it now, the server keeps only a hash.'));
}

/** A labelled form control with room for its error message. */
export function field(label, control, { hint, name } = {}) {
  control.id ||= uid();
  const err = h('p', { class: 'field-error', id: `${control.id}-err`, hidden: true });
  const hintEl = hint ? h('p', { class: 'hint', id: `${control.id}-hint` }, hint) : null;
  control.setAttribute('aria-describedby', [hintEl?.id, err.id].filter(Boolean).join(' '));
  return h('div', { class: 'field', 'data-field': name ?? '' }, h('label', { for: control.id }, label), control, hintEl, err);
}

/** Shows (or clears, with '') the error under a field made by `field()`. */
export function fieldError(wrapper, message) {
  const control = wrapper.querySelector('input, select, textarea');
  const err = wrapper.querySelector('.field-error');
  err.textContent = message;
  err.hidden = !message;
  if (message) control.setAttribute('aria-invalid', 'true');
  else control.removeAttribute('aria-invalid');
}

/** Local datetime-local value ↔ ISO 8601 (the API's datetime fields are UTC instants). */
export function isoToLocal(iso) {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const pad = (n, w = 2) => String(n).padStart(w, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

export function localToIso(local) {
  if (!local) return null;
  const d = new Date(local);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

/** The JSON Schema type of a property, without null. */
export function baseType(schema) {
  const t = schema?.type;
  if (Array.isArray(t)) return t.find((x) => x !== 'null');
  return t;
}

/** On navigation: a message said just before it ("Saved", then the record's page) stays; older ones go. */
export function ageStatus() {
  if (!carried && performance.now() - saidAt < 1000) carried = true;
  else say('');
}
