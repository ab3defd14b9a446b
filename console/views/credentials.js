// API keys and OAuth clients: list, create (the secret is shown once, with a copy button), and
// revoke/delete after a confirmation.
import { api } from '../api.js';
import { cellText, confirmDialog, field, fill, h, problemBox, say, secretBox, table } from '../widgets.js';
import { scopePicker } from './scope-picker.js';

export async function credentialsView(main) {
  const heading = h('h1', {}, 'API keys & OAuth clients');
  const keys = h('section', { 'aria-labelledby': 'keys-h' });
  const clients = h('section', { 'aria-labelledby': 'clients-h' });
  fill(main, heading, h('p', {}, 'Managing credentials needs an admin token (scope *).'), keys, clients);
  // The scopes the server checks, for the forms' checkboxes; without them the forms take typed scopes.
  const catalog = await api('GET', '/api-keys/scopes').then((r) => r.body.scopes ?? [], () => []);
  await Promise.all([credentialSection(keys, API_KEYS, catalog), credentialSection(clients, OAUTH_CLIENTS, catalog)]);
}

const scopesColumn = { label: 'scopes', cell: (c) => cellText((c.scopes ?? []).join(' ')) };

/** API keys: the key itself is in the create response only. */
const API_KEYS = {
  id: 'keys', title: 'API keys', path: '/api-keys', embedded: 'api-keys', idOf: (k) => k.id,
  intro: 'A key is shown once, when it is created; the server keeps only a hash.',
  formLabel: 'Create an API key', inputName: 'key', scopesLegend: 'Scopes of the key', submit: 'Create key',
  created: (body) => [secretBox(`The new key "${body.name}"`, body.key)],
  columns: [{ label: 'id', key: 'id' }, { label: 'name', key: 'name' }, scopesColumn, { label: 'starts with', key: 'hint' }, { label: 'created', key: 'createdAt' }],
  remove: { verb: 'Revoke', noun: 'key', done: 'Revoked', consequence: 'Requests with it fail from now on. This cannot be undone.', confirmLabel: 'Revoke' },
};

/** OAuth clients: the secret is in the registration response only. */
const OAUTH_CLIENTS = {
  id: 'clients', title: 'OAuth clients', path: '/oauth/clients', embedded: 'clients', idOf: (c) => c.client_id,
  formLabel: 'Register an OAuth client', inputName: 'client', scopesLegend: 'Scopes its tokens may carry', submit: 'Register client',
  created: (body) => [h('p', {}, 'Client id: ', h('code', {}, body.client_id)), secretBox(`The secret of "${body.name}"`, body.client_secret)],
  columns: [{ label: 'client id', key: 'client_id' }, { label: 'name', key: 'name' }, scopesColumn, { label: 'created', key: 'createdAt' }],
  remove: { verb: 'Delete', noun: 'client', done: 'Deleted', consequence: 'Its tokens stop working. This cannot be undone.' },
};

/** One kind of credential: its table with a remove button per row, and the form that creates one. */
async function credentialSection(el, kind, catalog) {
  const reload = () => credentialSection(el, kind, catalog);
  const head = h('h2', { id: `${kind.id}-h` }, kind.title);
  let list;
  try {
    list = (await api('GET', kind.path)).body._embedded?.[kind.embedded] ?? [];
  } catch (err) {
    return fill(el, head, problemBox(err));
  }
  const out = h('div', { 'aria-live': 'polite' });
  const name = h('input', { type: 'text', name: `${kind.inputName}-name`, required: true });
  const scopes = scopePicker(catalog, { legend: kind.scopesLegend });
  const form = h('form', { class: 'card inline', 'aria-label': kind.formLabel, onsubmit: async (e) => {
    e.preventDefault();
    try {
      const res = await api('POST', kind.path, { body: { name: name.value, scopes: scopes.value() } });
      await reload();
      const warnings = (res.body.warnings ?? []).map((w) => h('p', { class: 'scope-warning' }, w));
      fill(el.querySelector('.created'), ...kind.created(res.body), ...warnings);
      el.querySelector('.created button')?.focus();
    } catch (err) {
      fill(out, problemBox(err));
    }
  } }, field('Name', name), scopes.el, h('button', { type: 'submit', class: 'primary' }, kind.submit), out);
  const { verb, noun, done, consequence, confirmLabel } = kind.remove;
  const removeButton = (c) => h('button', { type: 'button', class: 'danger small', 'aria-label': `${verb} ${noun} ${c.name} (${kind.idOf(c)})`, onclick: async () => {
    if (!(await confirmDialog(`${verb} the ${noun} "${c.name}"?`, consequence, confirmLabel))) return;
    try {
      await api('DELETE', `${kind.path}/${encodeURIComponent(kind.idOf(c))}`);
      await reload();
      say(`${done} ${noun} ${c.name}.`);
    } catch (err) {
      fill(out, problemBox(err));
    }
  } }, verb);
  const rows = table([...kind.columns, { label: '', cell: removeButton }], list, { caption: kind.title });
  fill(el, head, ...(kind.intro ? [h('p', { class: 'hint' }, kind.intro)] : []), h('div', { class: 'created' }), rows, form);
}
