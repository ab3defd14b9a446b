// API keys and OAuth clients: list, create (the secret is shown once, with a copy button), and
// revoke/delete after a confirmation.
import { api } from '../api.js';
import { cellText, confirmDialog, field, fill, h, problemBox, say, secretBox, table } from '../widgets.js';

const scopesOf = (text) => text.split(/[\s,]+/).filter(Boolean);

export async function credentialsView(main) {
  const heading = h('h1', {}, 'API keys & OAuth clients');
  const keys = h('section', { 'aria-labelledby': 'keys-h' });
  const clients = h('section', { 'aria-labelledby': 'clients-h' });
  fill(main, heading, h('p', {}, 'Managing credentials needs an admin token (scope *).'), keys, clients);
  await Promise.all([keySection(keys), clientSection(clients)]);
}

async function keySection(el) {
  const reload = () => keySection(el);
  const head = h('h2', { id: 'keys-h' }, 'API keys');
  let list;
  try {
    list = (await api('GET', '/api-keys')).body._embedded?.['api-keys'] ?? [];
  } catch (err) {
    return fill(el, head, problemBox(err));
  }
  const out = h('div', { 'aria-live': 'polite' });
  const name = h('input', { type: 'text', name: 'key-name', required: true });
  const scopes = h('input', { type: 'text', name: 'key-scopes', placeholder: 'characters:write events:read' });
  const form = h('form', { class: 'card inline', 'aria-label': 'Create an API key', onsubmit: async (e) => {
    e.preventDefault();
    try {
      const res = await api('POST', '/api-keys', { body: { name: name.value, scopes: scopesOf(scopes.value) } });
      await reload();
      fill(el.querySelector('.created'), secretBox(`The new key "${res.body.name}"`, res.body.key));
      el.querySelector('.created button')?.focus();
    } catch (err) {
      fill(out, problemBox(err));
    }
  } }, field('Name', name), field('Scopes', scopes, { hint: 'Space- or comma-separated; * is admin' }), h('button', { type: 'submit', class: 'primary' }, 'Create key'), out);
  const rows = table([
    { label: 'id', key: 'id' },
    { label: 'name', key: 'name' },
    { label: 'scopes', cell: (k) => cellText((k.scopes ?? []).join(' ')) },
    { label: 'starts with', key: 'hint' },
    { label: 'created', key: 'createdAt' },
    { label: '', cell: (k) => h('button', { type: 'button', class: 'danger small', 'aria-label': `Revoke key ${k.name} (${k.id})`, onclick: async () => {
      if (!(await confirmDialog(`Revoke the key "${k.name}"?`, 'Requests with it fail from now on. This cannot be undone.', 'Revoke'))) return;
      try {
        await api('DELETE', `/api-keys/${encodeURIComponent(k.id)}`);
        await reload();
        say(`Revoked key ${k.name}.`);
      } catch (err) {
        fill(out, problemBox(err));
      }
    } }, 'Revoke') },
  ], list, { caption: 'API keys' });
  fill(el, head, h('p', { class: 'hint' }, 'A key is shown once, when it is created; the server keeps only a hash.'), h('div', { class: 'created' }), rows, form);
}

async function clientSection(el) {
  const reload = () => clientSection(el);
  const head = h('h2', { id: 'clients-h' }, 'OAuth clients');
  let list;
  try {
    list = (await api('GET', '/oauth/clients')).body._embedded?.clients ?? [];
  } catch (err) {
    return fill(el, head, problemBox(err));
  }
  const out = h('div', { 'aria-live': 'polite' });
  const name = h('input', { type: 'text', name: 'client-name', required: true });
  const scopes = h('input', { type: 'text', name: 'client-scopes', placeholder: 'characters:write' });
  const form = h('form', { class: 'card inline', 'aria-label': 'Register an OAuth client', onsubmit: async (e) => {
    e.preventDefault();
    try {
      const res = await api('POST', '/oauth/clients', { body: { name: name.value, scopes: scopesOf(scopes.value) } });
      await reload();
      fill(el.querySelector('.created'), h('p', {}, 'Client id: ', h('code', {}, res.body.client_id)), secretBox(`The secret of "${res.body.name}"`, res.body.client_secret));
      el.querySelector('.created button')?.focus();
    } catch (err) {
      fill(out, problemBox(err));
    }
  } }, field('Name', name), field('Scopes', scopes, { hint: 'Space- or comma-separated' }), h('button', { type: 'submit', class: 'primary' }, 'Register client'), out);
  const rows = table([
    { label: 'client id', key: 'client_id' },
    { label: 'name', key: 'name' },
    { label: 'scopes', cell: (c) => cellText((c.scopes ?? []).join(' ')) },
    { label: 'created', key: 'createdAt' },
    { label: '', cell: (c) => h('button', { type: 'button', class: 'danger small', 'aria-label': `Delete client ${c.name} (${c.client_id})`, onclick: async () => {
      if (!(await confirmDialog(`Delete the client "${c.name}"?`, 'Its tokens stop working. This cannot be undone.'))) return;
      try {
        await api('DELETE', `/oauth/clients/${encodeURIComponent(c.client_id)}`);
        await reload();
        say(`Deleted client ${c.name}.`);
      } catch (err) {
        fill(out, problemBox(err));
      }
    } }, 'Delete') },
  ], list, { caption: 'OAuth clients' });
  fill(el, head, h('div', { class: 'created' }), rows, form);
}
