/**
 * The one script of the browsable pages, inline and allowed by its hash (see page-assets.ts), so
 * the pages keep a strict Content-Security-Policy. It never writes data as HTML (textContent only).
 *
 * - The token box keeps a bearer token in sessionStorage under `restwell.token` (the web console
 *   uses the same key): it lives as long as the tab, and is never a cookie.
 * - Write forms are sent with fetch, since HTML forms cannot send PUT, PATCH, DELETE or a bearer
 *   header: JSON for POST and PUT, a merge patch (RFC 7396) of the changed fields for PATCH, and
 *   If-Match with the ETag of the version shown. Success navigates to the record (or collection);
 *   a problem is shown with each `errors[]` entry beside its field.
 * - The filter form renames its value inputs as their field and operator change.
 * - A 401/403 page of a GET offers to load the page again with the saved token.
 */
export const BROWSE_SCRIPT = `(() => {
'use strict';
const KEY = 'restwell.token';
const token = () => { try { return sessionStorage.getItem(KEY) || ''; } catch { return ''; } };
const $ = (sel, root) => (root || document).querySelector(sel);
const $$ = (sel, root) => Array.from((root || document).querySelectorAll(sel));

const box = $('#rw-token');
if (box) {
  const input = $('input', box);
  const state = $('[data-token-state]', box);
  const show = () => { state.textContent = token() ? 'token saved for this tab' : 'no token (reads only)'; };
  box.addEventListener('submit', (e) => {
    e.preventDefault();
    const value = input.value.trim().replace(/^Bearer\\s+/i, '');
    if (value) sessionStorage.setItem(KEY, value);
    input.value = '';
    show();
  });
  $('[data-clear]', box).addEventListener('click', () => { sessionStorage.removeItem(KEY); show(); });
  show();
}

const headersFor = (method, etag, hasBody) => {
  const h = { Accept: 'application/json' };
  if (hasBody) h['Content-Type'] = method === 'PATCH' ? 'application/merge-patch+json' : 'application/json';
  if (token()) h.Authorization = 'Bearer ' + token();
  if (etag && method !== 'POST') h['If-Match'] = etag;
  return h;
};

const clearErrors = (form) => {
  $$('[data-error-for]', form).forEach((el) => { el.textContent = ''; });
  $$('[aria-invalid]', form).forEach((el) => el.removeAttribute('aria-invalid'));
  const status = $('[data-status]', form);
  status.textContent = '';
  status.className = 'rw-status';
};

const fieldError = (form, name, message) => {
  const slot = $$('[data-error-for]', form).find((el) => el.dataset.errorFor === name);
  const input = $$('[data-field]', form).find((el) => el.dataset.field === name);
  if (!slot) return false;
  slot.textContent = message;
  if (input) input.setAttribute('aria-invalid', 'true');
  return true;
};

const showStatus = (form, text, kind, lines) => {
  const status = $('[data-status]', form);
  status.className = 'rw-status ' + kind;
  status.textContent = '';
  const p = document.createElement('p');
  p.textContent = text;
  status.appendChild(p);
  if (lines && lines.length) {
    const ul = document.createElement('ul');
    for (const line of lines) { const li = document.createElement('li'); li.textContent = line; ul.appendChild(li); }
    status.appendChild(ul);
  }
};

const showProblem = async (form, res) => {
  let problem = {};
  try { problem = await res.json(); } catch { problem = {}; }
  const title = (problem.title || res.statusText || 'Error') + ' (' + res.status + ')';
  const rest = [];
  for (const e of Array.isArray(problem.errors) ? problem.errors : []) {
    const name = String(e.pointer || '').replace(/^\\//, '').split('/')[0];
    if (!name || !fieldError(form, name, String(e.detail || 'is invalid'))) rest.push((name || 'body') + ': ' + String(e.detail || ''));
  }
  if (res.status === 401) rest.push('Paste a token with write access in the token box at the top of the page.');
  if (res.status === 412) rest.push('The record changed since this page was loaded: reload the page to edit the current version.');
  showStatus(form, title + (problem.detail ? ': ' + problem.detail : ''), 'error', rest);
  const first = $('[aria-invalid]', form);
  if (first) first.focus();
};

const valueOf = (el) => {
  const raw = el.value;
  // An empty input means "no value": left out of POST and PUT, null (removed) in a merge patch.
  if (raw === '' || (el.dataset.type !== 'string' && raw.trim() === '')) return undefined;
  switch (el.dataset.type) {
    case 'integer': case 'number': return Number(raw);
    case 'boolean': return raw === 'true';
    case 'datetime': return new Date(raw + (raw.length === 16 ? ':00' : '') + 'Z').toISOString();
    case 'reference': return el.dataset.idType === 'integer' ? Number(raw) : raw;
    case 'json': return JSON.parse(raw);
    default: return raw;
  }
};

const collect = (form) => {
  const values = {};
  let bad = false;
  for (const el of $$('[data-field]', form)) {
    try {
      const v = valueOf(el);
      if (v !== undefined) values[el.dataset.field] = v;
    } catch (err) {
      fieldError(form, el.dataset.field, 'is not valid JSON: ' + err.message);
      bad = true;
    }
  }
  return bad ? undefined : values;
};

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

const send = async (form, method, url, body) => {
  const buttons = $$('button', form);
  buttons.forEach((b) => { b.disabled = true; });
  showStatus(form, method + ' ' + url + ' …', 'pending');
  try {
    const res = await fetch(url, { method, headers: headersFor(method, form.dataset.etag, body !== undefined), body: body === undefined ? undefined : JSON.stringify(body) });
    if (res.ok) {
      showStatus(form, res.status + ' ' + res.statusText, 'ok');
      const target = res.status === 204 ? form.dataset.collection : res.headers.get('Location') || url;
      window.location.assign(target);
      return;
    }
    clearErrors(form);
    await showProblem(form, res);
  } catch (err) {
    showStatus(form, 'The request failed: ' + err.message, 'error');
  } finally {
    buttons.forEach((b) => { b.disabled = false; });
  }
};

for (const form of $$('form.rw-write')) {
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    clearErrors(form);
    const method = (e.submitter && e.submitter.value) || 'POST';
    const values = collect(form);
    if (!values) { showStatus(form, 'Fix the fields marked below.', 'error'); return; }
    if (method !== 'PATCH') return send(form, method, form.dataset.action, values);
    const original = JSON.parse(form.dataset.original || '{}');
    const patch = {};
    for (const name of Object.keys(original)) {
      const now = Object.prototype.hasOwnProperty.call(values, name) ? values[name] : null;
      if (!same(now, original[name])) patch[name] = now;
    }
    if (!Object.keys(patch).length) { showStatus(form, 'Nothing changed: edit a field first.', 'error'); return; }
    return send(form, 'PATCH', form.dataset.action, patch);
  });
}

for (const form of $$('form.rw-delete')) {
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    if (!window.confirm('Delete ' + form.dataset.action + '? This cannot be undone.')) return;
    send(form, 'DELETE', form.dataset.action, undefined);
  });
}

for (const row of $$('.rw-filter')) {
  const field = $('[data-filter-field]', row);
  const op = $('[data-filter-op]', row);
  const value = $('[data-filter-value]', row);
  const rename = () => { value.name = op.value === 'eq' ? field.value : field.value + '[' + op.value + ']'; };
  field.addEventListener('change', rename);
  op.addEventListener('change', rename);
}
for (const form of $$('form.rw-query-form')) {
  form.addEventListener('submit', () => {
    for (const el of $$('[data-optional]', form)) if (el.value === '') el.disabled = true;
  });
}

for (const form of $$('form.rw-template')) {
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    let url = form.dataset.template;
    for (const el of $$('input', form)) url = url.split('{' + el.name + '}').join(encodeURIComponent(el.value));
    window.location.assign(url.replace(/\\{[^}]*\\}/g, ''));
  });
}

const retry = $('#rw-retry');
if (retry) {
  retry.addEventListener('click', async () => {
    const res = await fetch(window.location.href, { headers: { Accept: 'text/html', Authorization: 'Bearer ' + token() } });
    const html = await res.text();
    document.open();
    document.write(html);
    document.close();
  });
}
})();`;
