// One record: view, create, edit (PUT with If-Match; a 412 says the record changed and offers the
// current version) and delete (after a confirmation).
import { api, ApiError, collectionSchemas } from '../api.js';
import { go, href } from '../router.js';
import { recordForm } from '../record-form.js';
import { nameField, timeCell } from '../cells.js';
import { noteCount } from '../counts.js';
import { capital, singular } from '../labels.js';
import { rightsOf } from '../rights.js';
import { cellText, confirmDialog, fill, h, members, problemBox, say } from '../widgets.js';

/** "Character #3": a record's title. */
const titleOf = (collection, id) => `${capital(singular(collection))} #${id}`;

/** The referenced record's name (one read), or null when it cannot be read. */
async function referencedName(path) {
  const target = path.split('/')[1];
  try {
    const [res, schemas] = await Promise.all([api('GET', path), collectionSchemas(target)]);
    const f = nameField(schemas.input);
    return f && res.body[f] !== null && res.body[f] !== undefined ? String(res.body[f]) : null;
  } catch {
    return null;
  }
}

const itemUrl = (collection, id) => `/${collection}/${encodeURIComponent(id)}`;

export async function recordView(main, { collection, id }) {
  const heading = h('h1', {}, titleOf(collection, id));
  fill(main, heading, h('p', {}, 'Loading…'));
  let res;
  let rights;
  let schemas;
  try {
    [res, rights, schemas] = await Promise.all([api('GET', itemUrl(collection, id)), rightsOf(collection), collectionSchemas(collection).catch(() => ({}))]);
  } catch (err) {
    fill(main, heading, problemBox(err), h('p', {}, h('a', { href: href(`/c/${collection}`) }, `Back to ${collection}`)));
    return;
  }
  const record = res.body;
  const links = record._links ?? {};
  const props = schemas.record?.properties ?? {};
  const render = (k, v) => {
    const l = links[k];
    // A reference field links to the record it points at, inside the console, by its name once known.
    if (l && v !== null && /^\/[^/]+\/[^/]+$/.test(l.href)) {
      const a = h('a', { href: `#/c${l.href}` }, cellText(v));
      referencedName(l.href).then((name) => name && fill(a, `${name} (#${v})`));
      return a;
    }
    if (v === null || v === undefined) return h('span', { class: 'empty' }, '—');
    if (typeof v === 'string' && (props[k]?.format === 'date-time' || k === 'createdAt' || k === 'updatedAt')) return h('span', {}, cellText(v), ' · ', timeCell(v));
    if (typeof v === 'object') return h('pre', { class: 'json', tabindex: '0', 'aria-label': k }, JSON.stringify(v, null, 2));
    return cellText(v);
  };
  const errBox = h('div');
  const del = h('button', { type: 'button', class: 'danger', onclick: async () => {
    if (!(await confirmDialog(`Delete ${singular(collection)} #${id}?`, `This deletes the record for good. Its deletion is recorded in the event log.`))) return;
    try {
      await api('DELETE', itemUrl(collection, id), { headers: res.etag ? { 'if-match': res.etag } : {} });
      noteCount(collection);
      say(`Deleted ${singular(collection)} #${id}.`);
      go(`/c/${collection}`);
    } catch (err) {
      fill(errBox, problemBox(err, err.status === 412 ? h('p', {}, h('a', { href: href(`/c/${collection}/${id}`), onclick: () => location.reload() }, 'Reload it')) : null));
    }
  } }, 'Delete');
  fill(main,
    heading,
    h('p', { class: 'crumbs' }, h('a', { href: href(`/c/${collection}`) }, `← ${collection}`)),
    rights.update || rights.delete ? h('div', { class: 'toolbar' }, rights.update ? h('a', { class: 'button primary', href: href(`/c/${collection}/${encodeURIComponent(id)}/edit`) }, 'Edit') : null, rights.delete ? del : null) : null,
    errBox,
    members(record, render),
    res.etag ? h('p', { class: 'hint' }, 'ETag: ', h('code', {}, res.etag)) : null);
}

export async function newView(main, { collection }) {
  const heading = h('h1', {}, `New ${singular(collection)}`);
  fill(main, heading, h('p', {}, 'Loading…'));
  const [schemas, rights] = await Promise.all([collectionSchemas(collection).catch(() => ({})), rightsOf(collection)]);
  const crumbs = h('p', { class: 'crumbs' }, h('a', { href: href(`/c/${collection}`) }, `← ${collection}`));
  if (!rights.create) {
    fill(main, heading, crumbs, h('div', { class: 'problem', role: 'alert' }, h('strong', {}, `This token may not create ${collection}`), h('p', {}, 'Sign in with a token that has the scope it needs: ', h('a', { href: '#/signin' }, 'sign in'))));
    return;
  }
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
      noteCount(collection);
      say(`Created ${singular(collection)} #${id}.`);
      go(`/c/${collection}/${encodeURIComponent(id)}`);
    } catch (err) {
      showFailure(err, form, errBox);
    }
  });
  fill(main, heading, crumbs, el);
  el.querySelector('input, select, textarea')?.focus();
}

/**
 * A 422, or a 409 for a unique value already used, goes to the fields (what no field shows is
 * listed), as the browsable HTML page does; anything else is one readable message.
 */
function showFailure(err, form, errBox) {
  if (err instanceof ApiError && (err.status === 422 || err.status === 409) && Array.isArray(err.problem.errors)) {
    const rest = form.showErrors(err.problem.errors);
    fill(errBox, problemBox(err, rest.length ? h('ul', {}, rest.map((e) => h('li', {}, `${e.pointer ?? ''} ${e.detail ?? ''}`))) : null));
    return;
  }
  fill(errBox, problemBox(err));
}

export async function editView(main, { collection, id }) {
  const heading = h('h1', {}, `Edit ${singular(collection)} #${id}`);
  fill(main, heading, h('p', {}, 'Loading…'));
  const [schemas, rights] = await Promise.all([collectionSchemas(collection).catch(() => ({})), rightsOf(collection)]);
  if (!rights.update) {
    fill(main, heading, h('div', { class: 'problem', role: 'alert' }, h('strong', {}, `This token may not change ${collection}`), h('p', {}, 'Sign in with a token that has the scope it needs: ', h('a', { href: '#/signin' }, 'sign in'))));
    return;
  }
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
    // A patch leaves out what it does not set: a required field left empty must be refused here,
    // as a PUT would be, not keep its old value.
    const missing = (schemas.input?.required ?? []).filter((name) => !(name in (r.body ?? {})));
    if (missing.length) form.showErrors(missing.map((name) => ({ pointer: `/${name}`, detail: 'is required' })));
    if (r.invalid || missing.length) return fill(errBox, problemBox({ problem: { title: 'Some fields need fixing', detail: 'See the messages at the fields.' } }));
    try {
      // A JSON Patch setting every writable field: what PUT would do, under the update rule alone
      // (a PUT may also create, so it needs the create rule too). Not a merge patch: that would
      // merge a JSON field's object into the old one instead of replacing it.
      const ops = Object.entries(r.body).map(([name, value]) => ({ op: 'add', path: `/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`, value }));
      await api('PATCH', itemUrl(collection, id), { body: ops, type: 'application/json-patch+json', headers: etag ? { 'if-match': etag } : {} });
      say(`Saved ${singular(collection)} #${id}.`);
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
  fill(main, heading, h('p', { class: 'crumbs' }, h('a', { href: href(`/c/${collection}/${encodeURIComponent(id)}`) }, `← ${titleOf(collection, id)}`)), el);
  el.querySelector('input, select, textarea')?.focus();
}
