// Picking a credential's scopes: a checkbox per scope the server checks (GET /api-keys/scopes),
// grouped by what they open, plus a text field for any other scope, which warns when nothing on
// this server checks it (it would grant nothing) and names the scope it most likely meant.
import { h, uid } from '../widgets.js';

const GROUPS = [
  ['resource', 'Collections'],
  ['events', 'Event log'],
  ['webhooks', 'Outbound webhooks'],
  ['metrics', 'Metrics'],
  ['admin', 'Admin'],
];

const splitScopes = (text) => text.split(/[\s,]+/).filter(Boolean);

/**
 * The scope picker of one form. `catalog` is the server's list ([] when it could not be read:
 * then only the text field is offered). Returns the element and a function giving the chosen scopes.
 */
export function scopePicker(catalog, { legend = 'Scopes', otherPlaceholder = 'e.g. reports:read' } = {}) {
  const known = new Set(catalog.map((e) => e.scope));
  const boxes = [];
  const groups = GROUPS.map(([group, title]) => {
    const entries = catalog.filter((e) => e.group === group);
    if (!entries.length) return null;
    return h('fieldset', { class: 'scope-group' }, h('legend', {}, title), ...entries.map((e) => {
      const box = h('input', { type: 'checkbox', id: uid('scope'), value: e.scope });
      boxes.push(box);
      return h('div', { class: 'scope-option' }, box, h('label', { for: box.id }, h('code', {}, e.scope), h('span', { class: 'hint' }, e.description)));
    }));
  }).filter(Boolean);
  const other = h('input', { type: 'text', id: uid('scope-other'), placeholder: otherPlaceholder, autocomplete: 'off' });
  const warning = h('p', { class: 'scope-warning', id: `${other.id}-warn`, 'aria-live': 'polite', hidden: true });
  const hint = h('p', { class: 'hint', id: `${other.id}-hint` }, catalog.length ? 'Space-separated; only for scopes not listed above.' : 'Space-separated; * is admin.');
  other.setAttribute('aria-describedby', `${hint.id} ${warning.id}`);
  other.addEventListener('input', () => {
    const unknown = catalog.length ? splitScopes(other.value).filter((s) => !known.has(s)) : [];
    warning.hidden = !unknown.length;
    warning.textContent = unknown.map((s) => unknownScopeText(s, catalog)).join(' ');
  });
  const el = h('fieldset', { class: 'scope-picker' }, h('legend', {}, legend), ...groups,
    h('div', { class: 'field' }, h('label', { for: other.id }, catalog.length ? 'Other scopes' : 'Scopes'), other, hint, warning));
  const value = () => [...new Set([...boxes.filter((b) => b.checked).map((b) => b.value), ...splitScopes(other.value)])];
  return { el, value };
}

/** The warning for one scope nothing checks, with the likely one (the CLI and the API say the same). */
function unknownScopeText(scope, catalog) {
  let best;
  for (const { scope: k } of catalog) {
    if (k === '*') continue;
    const d = editDistance(scope.toLowerCase(), k.toLowerCase());
    if (!best || d < best.d) best = { k, d };
  }
  const close = best && best.d <= Math.max(1, Math.min(3, Math.floor(scope.length / 3)));
  return `"${scope}" is not a scope this server checks, so it grants nothing${close ? `; did you mean ${best.k}?` : '.'}`;
}

/** Levenshtein distance between two strings. */
function editDistance(a, b) {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}
