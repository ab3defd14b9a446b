// One record: view, create, edit (PUT with If-Match; a 412 says the record changed and offers the
// current version) and delete (after a confirmation).
import { api, ApiError, collectionSchemas } from '../api.js';
import { go, href } from '../router.js';
import { recordForm } from '../record-form.js';
import { cellText, confirmDialog, fill, h, members, problemBox, say } from '../widgets.js';

const itemUrl = (collection, id) => `/${collection}/${encodeURIComponent(id)}`;

export async function recordView(main, { collection, id }) {
  const heading = h('h1', {}, `${collection} #${id}`);
  fill(main, heading, h('p', {}, 'Loading…'));
  let res;
  try {
    res = await api('GET', itemUrl(collection, id));
  } catch (err) {
    fill(main, heading, problemBox(err), h('p', {}, h('a', { href: href(`/c/${collection}`) }, `Back to ${collection}`)));
    return;
  }
  const record = res.body;
  const links = record._links ?? {};
  const render = (k, v) => {
    const l = links[k];
    // A reference field links to the record it points at, inside the console.
    if (l && v !== null && /^\/[^/]+\/[^/]+$/.test(l.href)) return h('a', { href: `#/c${l.href}` }, cellText(v));
    if (v && typeof v === 'object') return h('pre', { class: 'json' }, JSON.stringify(v, null, 2));
    return cellText(v);
  };
  const errBox = h('div');
  const del = h('button', { type: 'button', class: 'danger', onclick: async () => {
    if (!(await confirmDialog(`Delete ${collection} #${id}?`, `This deletes the record for good. Its deletion is recorded in the event log.`))) return;
    try {
      await api('DELETE', itemUrl(collection, id), { headers: res.etag ? { 'if-match': res.etag } : {} });
      say(`Deleted ${collection} #${id}.`);
      go(`/c/${collection}`);
    } catch (err) {
      fill(errBox, problemBox(err, err.status === 412 ? h('p', {}, h('a', { href: href(`/c/${collection}/${id}`), onclick: () => location.reload() }, 'Reload it')) : null));
    }
  } }, 'Delete');
  fill(main,
    heading,
    h('p', { class: 'crumbs' }, h('a', { href: href(`/c/${collection}`) }, `← ${collection}`)),
    h('div', { class: 'toolbar' }, h('a', { class: 'button primary', href: href(`/c/${collection}/${encodeURIComponent(id)}/edit`) }, 'Edit'), del),
    errBox,
    members(record, render),
    res.etag ? h('p', { class: 'hint' }, 'ETag: ', h('code', {}, res.etag)) : null);
}

export async function newView(main, { collection }) {
  const heading = h('h1', {}, `New ${collection} record`);
  fill(main, heading, h('p', {}, 'Loading…'));
  const schemas = await collectionSchemas(collection).catch(() => ({}));
  const form = recordForm(collection, schemas, {});
  const errBox = h('div');
  const el = h('form', { class: 'card', novalidate: true }, form.el, errBox, h('div', { class: 'buttons' }, h('button', { type: 'submit', class: 'primary' }, 'Create'), h('a', { class: 'button', href: href(`/c/${collection}`) }, 'Cancel')));
  el.addEventListener('submit', async (e) => {
    e.preventDefault();
    fill(errBox);
    const r = form.read();
    if (r.invalid) return fill(errBox, problemBox({ problem: { title: 'Some fields need fixing', detail: 'See the messages at the fields.' } }));
    try {
      const res = await api('POST', `/${collection}`, { body: r.body });
      // A token that may create but not read gets no record back, only its Location.
      const id = res.body?.id ?? decodeURIComponent(String(res.headers.get('location')).split('/').pop());
      say(`Created ${collection} #${id}.`);
      go(`/c/${collection}/${encodeURIComponent(id)}`);
    } catch (err) {
      showFailure(err, form, errBox);
    }
  });
  fill(main, heading, h('p', { class: 'crumbs' }, h('a', { href: href(`/c/${collection}`) }, `← ${collection}`)), el);
  el.querySelector('input, select, textarea')?.focus();
}

/** A 422 goes to the fields (what no field shows is listed); anything else is one readable message. */
function showFailure(err, form, errBox) {
  if (err instanceof ApiError && err.status === 422 && Array.isArray(err.problem.errors)) {
    const rest = form.showErrors(err.problem.errors);
    fill(errBox, problemBox(err, rest.length ? h('ul', {}, rest.map((e) => h('li', {}, `${e.pointer ?? ''} ${e.detail ?? ''}`))) : null));
    return;
  }
  fill(errBox, problemBox(err));
}

export async function editView(main, { collection, id }) {
  const heading = h('h1', {}, `Edit ${collection} #${id}`);
  fill(main, heading, h('p', {}, 'Loading…'));
  const schemas = await collectionSchemas(collection).catch(() => ({}));
  let res;
  try {
    res = await api('GET', itemUrl(collection, id));
  } catch (err) {
    fill(main, heading, problemBox(err));
    return;
  }
  let etag = res.etag;
  const form = recordForm(collection, schemas, res.body);
  const errBox = h('div');
  const etagNote = h('p', { class: 'hint' }, `Editing version ${res.body.version ?? '?'} (If-Match ${etag})`);
  const save = async () => {
    fill(errBox);
    const r = form.read();
    if (r.invalid) return fill(errBox, problemBox({ problem: { title: 'Some fields need fixing', detail: 'See the messages at the fields.' } }));
    try {
      await api('PUT', itemUrl(collection, id), { body: r.body, headers: etag ? { 'if-match': etag } : {} });
      say(`Saved ${collection} #${id}.`);
      go(`/c/${collection}/${encodeURIComponent(id)}`);
    } catch (err) {
      if (err instanceof ApiError && err.status === 412) return conflict(err);
      showFailure(err, form, errBox);
    }
  };
  /** The record changed since it was read: show the current version and let the user choose. */
  const conflict = async (err) => {
    let current;
    try {
      current = await api('GET', itemUrl(collection, id));
    } catch (e) {
      return fill(errBox, problemBox(e));
    }
    const body = current.body;
    fill(errBox, h('div', { class: 'conflict', role: 'alert' },
      h('h2', {}, 'Conflict: this record was changed by someone else'),
      h('p', {}, `You edited version ${res.body.version ?? '?'}; it is now at version ${body.version ?? '?'}. Your changes are not saved.`),
      h('details', { open: true }, h('summary', {}, 'The current version'), members(body)),
      h('div', { class: 'buttons' },
        h('button', { type: 'button', id: 'conflict-reload', onclick: () => {
          res = current;
          etag = current.etag;
          form.set(body);
          fill(etagNote, `Editing version ${body.version ?? '?'} (If-Match ${etag})`);
          fill(errBox);
          say('Loaded the current version; your edits were discarded.');
          el.querySelector('input, select, textarea')?.focus();
        } }, 'Discard my changes and load the current version'),
        h('button', { type: 'button', id: 'conflict-overwrite', class: 'danger', onclick: () => {
          res = current;
          etag = current.etag;
          fill(etagNote, `Editing version ${body.version ?? '?'} (If-Match ${etag})`);
          save();
        } }, 'Save mine over it'))));
    errBox.querySelector('#conflict-reload').focus();
  };
  const el = h('form', { class: 'card', novalidate: true }, form.el, etagNote, errBox, h('div', { class: 'buttons' }, h('button', { type: 'submit', class: 'primary' }, 'Save'), h('a', { class: 'button', href: href(`/c/${collection}/${encodeURIComponent(id)}`) }, 'Cancel')));
  el.addEventListener('submit', (e) => {
    e.preventDefault();
    save();
  });
  fill(main, heading, h('p', { class: 'crumbs' }, h('a', { href: href(`/c/${collection}/${encodeURIComponent(id)}`) }, `← ${collection} #${id}`)), el);
  el.querySelector('input, select, textarea')?.focus();
}
