// Outbound webhooks, managed: the endpoints (create, edit, enable/disable, rotate the secret, send a
// test message, delete), what was sent to each (filtered by status and event type), replays since
// a time, and one delivery with its attempts (redeliver now).
import { api } from '../api.js';
import { go, href } from '../router.js';
import { cellText, confirmDialog, field, fieldError, fill, h, isoToLocal, localToIso, members, pre, problemBox, say, secretBox, table, uid } from '../widgets.js';
import { attemptsTable } from './inbox.js';
import { logPager } from './log-pager.js';
import { mountEndpointHealth } from './webhook-health.js';

const enc = encodeURIComponent;
const STATUSES = ['pending', 'delivered', 'failed'];

let catalog;
/** The API's event types and the patterns an endpoint may list (`GET /webhook-endpoints/event-types`), once per page load. */
async function eventTypes() {
  catalog ??= api('GET', '/webhook-endpoints/event-types').then((r) => r.body);
  try {
    return await catalog;
  } catch (err) {
    catalog = undefined;
    throw err;
  }
}

/** A signing secret shown once: the server keeps it sealed (it must sign with it), so not "only a hash". */
function secretOnce(label, value) {
  const box = secretBox(label, value);
  fill(box.querySelector('.hint'), 'Shown once: copy it now; the API never shows it again (it keeps it encrypted, to sign with).');
  return box;
}

const enabledBadge = (ep) => h('span', { class: `badge ${ep.enabled ? 'delivered' : 'failed'}` }, ep.enabled ? 'enabled' : 'disabled');

export async function endpointsView(main) {
  const heading = h('h1', {}, 'Outbound webhooks');
  fill(main, heading, h('p', {}, 'Loading…'));
  try {
    const page = (await api('GET', '/webhook-endpoints?limit=100')).body;
    const rows = page._embedded?.['webhook-endpoints'] ?? [];
    fill(main, heading,
      h('p', {}, 'Subscribers that receive every matching event as a signed POST (Standard Webhooks).'),
      h('div', { class: 'toolbar' }, h('a', { class: 'button primary', href: '#/outbound/new' }, 'New endpoint')),
      table([
        { label: 'endpoint', cell: (e) => h('a', { href: href(`/outbound/${enc(e.id)}`) }, e.id) },
        { label: 'url', key: 'url' },
        { label: 'description', key: 'description' },
        { label: 'events', cell: (e) => cellText(e.eventTypes?.join(', ') ?? 'all') },
        { label: 'state', cell: (e) => [enabledBadge(e), e.disabledReason ? h('span', { class: 'hint' }, ` ${e.disabledReason}`) : null] },
        { label: 'failing since', key: 'failingSince' },
      ], rows, { caption: 'Webhook endpoints' }),
      logPager('/outbound', page, new URLSearchParams()));
  } catch (err) {
    fill(main, heading, problemBox(err));
  }
}

/**
 * The endpoint form (create, or edit `ep`): URL, description, event types as checkboxes from the
 * API's list (or every event), and the optional rate limit. Credential headers are set over the API.
 */
function endpointForm(types, ep, onSubmit) {
  const url = h('input', { type: 'url', name: 'url', required: true, value: ep?.url ?? '', placeholder: 'https://example.com/webhooks', autocomplete: 'url' });
  const description = h('input', { type: 'text', name: 'description', value: ep?.description ?? '', maxlength: '500' });
  const chosen = new Set(ep?.eventTypes ?? []);
  const all = h('input', { type: 'checkbox', name: 'all-events', id: uid('all'), checked: !ep?.eventTypes });
  // Every pattern the server accepts, and any the endpoint lists that the config no longer has.
  const patterns = [...new Set([...types.patterns.filter((p) => p !== '*'), ...chosen])];
  const boxes = patterns.map((p) => h('input', { type: 'checkbox', name: 'eventTypes', value: p, id: uid('et'), checked: chosen.has(p) }));
  const sync = () => boxes.forEach((b) => (b.disabled = all.checked));
  all.addEventListener('change', sync);
  sync();
  const typesError = h('p', { class: 'field-error', id: uid('et-err'), hidden: true });
  const typesSet = h('fieldset', { class: 'event-types', 'aria-describedby': typesError.id },
    h('legend', {}, 'Event types'),
    h('p', { class: 'check' }, all, h('label', { for: all.id }, 'All events, including types added later')),
    h('ul', { class: 'type-grid' }, boxes.map((b) => h('li', { class: 'check' }, b, h('label', { for: b.id }, b.value)))),
    typesError);
  const limit = h('input', { type: 'number', name: 'rate-limit', min: '1', step: '1', value: ep?.rateLimit?.limit ?? '', inputmode: 'numeric' });
  const window = h('input', { type: 'text', name: 'rate-window', value: ep?.rateLimit?.window ?? '', placeholder: '1s' });
  const fields = {
    '/url': field('URL', url, { hint: 'Deliveries are POSTed here.' }),
    '/description': field('Description', description),
    '/rateLimit/limit': field('Rate limit: deliveries', limit, { hint: 'Empty: no limit.' }),
    '/rateLimit/window': field('Rate limit: per', window, { hint: 'A duration such as 1s, 1m or 1h.' }),
  };
  const out = h('div', { 'aria-live': 'polite' });
  const submit = h('button', { type: 'submit', class: 'primary' }, ep ? 'Save changes' : 'Create endpoint');
  const form = h('form', { class: 'card', 'aria-label': ep ? 'Edit the endpoint' : 'Create an endpoint', novalidate: true, onsubmit: async (e) => {
    e.preventDefault();
    for (const f of Object.values(fields)) fieldError(f, '');
    typesError.hidden = true;
    fill(out);
    const body = {
      url: url.value.trim(),
      description: description.value.trim() || null,
      eventTypes: all.checked ? null : boxes.filter((b) => b.checked).map((b) => b.value),
      rateLimit: limit.value || window.value ? { limit: Number(limit.value), window: window.value.trim() } : null,
    };
    if (body.eventTypes?.length === 0) {
      typesError.textContent = 'Pick at least one event type, or All events.';
      typesError.hidden = false;
      boxes[0]?.focus();
      return;
    }
    submit.disabled = true;
    try {
      await onSubmit(body, out);
    } catch (err) {
      let shown = false;
      for (const { pointer, detail } of err.problem?.errors ?? []) {
        if (pointer.startsWith('/eventTypes')) {
          typesError.textContent = detail;
          typesError.hidden = false;
          shown = true;
        } else if (fields[pointer] || fields[pointer.replace(/^\/rateLimit$/, '/rateLimit/limit')]) {
          fieldError(fields[pointer] ?? fields['/rateLimit/limit'], detail);
          shown = true;
        }
      }
      fill(out, problemBox(err));
      if (shown) form.querySelector('[aria-invalid="true"], .field-error:not([hidden])')?.scrollIntoView({ block: 'center' });
    } finally {
      submit.disabled = false;
    }
  } },
  fields['/url'], fields['/description'], typesSet,
  h('div', { class: 'rate' }, fields['/rateLimit/limit'], fields['/rateLimit/window']),
  h('p', { class: 'hint' }, 'Extra request headers (credentials are stored sealed) are set with the API: PATCH /webhook-endpoints/{id} {"headers": {…}}.'),
  h('div', { class: 'buttons' }, submit, h('a', { class: 'button', href: ep ? href(`/outbound/${enc(ep.id)}`) : '#/outbound' }, 'Cancel')),
  out);
  return form;
}

/** `#/outbound/new`: the create form; the new secret is shown once, in place of the form. */
export async function newEndpointView(main) {
  const heading = h('h1', {}, 'New webhook endpoint');
  const crumbs = h('p', { class: 'crumbs' }, h('a', { href: '#/outbound' }, '← endpoints'));
  fill(main, heading, crumbs, h('p', {}, 'Loading…'));
  let types;
  try {
    types = await eventTypes();
  } catch (err) {
    fill(main, heading, crumbs, problemBox(err));
    return;
  }
  const form = endpointForm(types, undefined, async (body) => {
    if (body.rateLimit === null) delete body.rateLimit;
    if (body.eventTypes === null) delete body.eventTypes;
    const created = (await api('POST', '/webhook-endpoints', { body })).body;
    say(`Created endpoint ${created.id}.`);
    fill(main, h('h1', {}, `Endpoint ${created.id} created`), crumbs,
      secretOnce('Its signing secret', created.secret),
      h('p', {}, 'Give the secret to the receiver: it verifies the webhook-signature header of every delivery with it.'),
      h('p', {}, h('a', { class: 'button primary', href: href(`/outbound/${enc(created.id)}`) }, 'Open the endpoint')));
    main.querySelector('.secret-box button')?.focus();
  });
  fill(main, heading, crumbs, form);
}

/** `#/outbound/:id/edit`: the form, filled, saved with PATCH and If-Match. */
export async function editEndpointView(main, { id }) {
  const heading = h('h1', {}, `Edit endpoint ${id}`);
  const crumbs = h('p', { class: 'crumbs' }, h('a', { href: href(`/outbound/${enc(id)}`) }, `← endpoint ${id}`));
  fill(main, heading, crumbs, h('p', {}, 'Loading…'));
  let res;
  let types;
  try {
    [res, types] = await Promise.all([api('GET', `/webhook-endpoints/${enc(id)}`), eventTypes()]);
  } catch (err) {
    fill(main, heading, crumbs, problemBox(err));
    return;
  }
  fill(main, heading, crumbs, endpointForm(types, res.body, async (body) => {
    await api('PATCH', `/webhook-endpoints/${enc(id)}`, { body, type: 'application/merge-patch+json', headers: res.etag ? { 'if-match': res.etag } : {} });
    say('Saved.');
    go(`/outbound/${enc(id)}`);
  }));
}

/** The toolbar of an endpoint: enable/disable, edit, test, rotate, delete; outcomes go to `out`. */
function endpointActions(main, ep, etag, out) {
  const path = `/webhook-endpoints/${enc(ep.id)}`;
  const reload = () => endpointView(main, { id: ep.id }, new URLSearchParams(location.hash.split('?')[1] ?? ''));
  const act = (button, run) => async () => {
    button.disabled = true;
    try {
      await run();
    } catch (err) {
      fill(out, problemBox(err));
    } finally {
      button.disabled = false;
    }
  };
  const toggle = h('button', { type: 'button', class: ep.enabled ? '' : 'primary', 'aria-pressed': String(ep.enabled) }, ep.enabled ? 'Disable' : 'Enable');
  toggle.addEventListener('click', act(toggle, async () => {
    await api('PATCH', path, { body: { enabled: !ep.enabled }, type: 'application/merge-patch+json', headers: etag ? { 'if-match': etag } : {} });
    say(ep.enabled ? 'Disabled: nothing is sent until it is enabled again.' : 'Enabled: deliveries resume where they stopped.');
    await reload();
  }));
  const test = h('button', { type: 'button' }, 'Send test event');
  test.addEventListener('click', act(test, async () => {
    fill(out, h('p', { role: 'status' }, 'Sending a webhook.test message…'));
    const r = (await api('POST', `${path}/test`)).body;
    const what = r.statusCode === null ? 'no response' : `HTTP ${r.statusCode}`;
    fill(out, h('div', { class: `outcome ${r.ok ? 'ok' : 'bad'}`, role: 'status' },
      h('strong', {}, r.ok ? `Test event delivered: ${what} in ${r.latencyMs} ms` : `Test event failed: ${what}`),
      r.error ? h('p', {}, r.error) : null,
      h('p', { class: 'hint' }, `webhook-id ${r.webhookId}; a test is not recorded among the deliveries.`),
      r.responseExcerpt ? pre(r.responseExcerpt, 'Response to the test event') : null));
  }));
  const rotate = h('button', { type: 'button' }, 'Rotate secret');
  rotate.addEventListener('click', act(rotate, async () => {
    const ok = await confirmDialog('Rotate the signing secret?', 'A new secret is made and shown once. The current one keeps signing beside it for the configured overlap (webhooks.outbound.rotationOverlap), so the receiver can switch without missing a delivery.', 'Rotate');
    if (!ok) return;
    const r = (await api('POST', `${path}/secrets`, { body: {} })).body;
    await reload();
    const box = main.querySelector('.endpoint-out');
    fill(box, secretOnce('The new signing secret', r.secret));
    box.querySelector('button')?.focus();
    say('Secret rotated.');
  }));
  const remove = h('button', { type: 'button', class: 'danger' }, 'Delete');
  remove.addEventListener('click', act(remove, async () => {
    if (!(await confirmDialog(`Delete the endpoint ${ep.id}?`, `Nothing more is sent to ${ep.url}, and its deliveries and their attempts are deleted. This cannot be undone.`))) return;
    await api('DELETE', path);
    say(`Deleted endpoint ${ep.id}.`);
    go('/outbound');
  }));
  return h('div', { class: 'toolbar' }, enabledBadge(ep), toggle, h('a', { class: 'button', href: href(`/outbound/${enc(ep.id)}/edit`) }, 'Edit'), test, rotate, remove);
}

/** Send again everything since a time, or only what failed (`POST …/replays`). */
function replayForm(ep, onDone) {
  // Whole seconds (step 1): a value with milliseconds would be a step mismatch.
  const since = h('input', { type: 'datetime-local', name: 'since', required: true, step: '1', value: isoToLocal(new Date(Date.now() - 3600_000).toISOString()).slice(0, 19) });
  const failedOnly = h('input', { type: 'checkbox', name: 'failed-only', id: uid('failed') });
  const out = h('div', { 'aria-live': 'polite' });
  const sinceField = field('Since (your local time)', since, { hint: 'Events committed from then on are sent again.' });
  return h('form', { class: 'card replay', 'aria-label': 'Replay deliveries', novalidate: true, onsubmit: async (e) => {
    e.preventDefault();
    fieldError(sinceField, '');
    const iso = localToIso(since.value);
    if (!iso) {
      fieldError(sinceField, 'Pick a date and time.');
      since.focus();
      return;
    }
    try {
      const r = (await api('POST', `/webhook-endpoints/${enc(ep.id)}/replays`, { body: { since: iso, failedOnly: failedOnly.checked } })).body;
      fill(out, h('p', { role: 'status' }, `Replay accepted: ${r.queued} existing ${r.queued === 1 ? 'delivery' : 'deliveries'} queued again${r.failedOnly ? ' (failed only)' : ', plus any for events from before the endpoint existed'}.${r.enabled ? '' : ' The endpoint is disabled: nothing is sent until it is enabled.'}`));
      await onDone?.();
    } catch (err) {
      for (const { pointer, detail } of err.problem?.errors ?? []) if (pointer === '/since') fieldError(sinceField, detail);
      fill(out, problemBox(err));
    }
  } },
  h('h2', {}, 'Replay'),
  sinceField,
  h('p', { class: 'check' }, failedOnly, h('label', { for: failedOnly.id }, 'Only deliveries that failed')),
  h('button', { type: 'submit', class: 'primary' }, 'Replay'),
  out);
}

/** Status and event-type filters of the deliveries table, as a form that changes the page's query. */
function deliveryFilters(ep, types, query) {
  const status = h('select', { name: 'status' }, h('option', { value: '' }, 'any'), STATUSES.map((s) => h('option', { value: s, selected: query.get('status') === s }, s)));
  const listed = new Set(types?.eventTypes ?? []);
  if (query.get('eventType')) listed.add(query.get('eventType'));
  const type = h('select', { name: 'eventType' }, h('option', { value: '' }, 'any'), [...listed].map((t) => h('option', { value: t, selected: query.get('eventType') === t }, t)));
  return h('form', { class: 'filters', 'aria-label': 'Filter the deliveries', onsubmit: (e) => {
    e.preventDefault();
    const q = new URLSearchParams();
    if (status.value) q.set('status', status.value);
    if (type.value) q.set('eventType', type.value);
    go(`/outbound/${enc(ep.id)}`, q);
  } }, field('Status', status), field('Event type', type), h('button', { type: 'submit' }, 'Filter'));
}

export async function endpointView(main, { id }, query) {
  const heading = h('h1', {}, `Endpoint ${id}`);
  fill(main, heading, h('p', {}, 'Loading…'));
  try {
    const res = await api('GET', `/webhook-endpoints/${enc(id)}`);
    const ep = res.body;
    const q = new URLSearchParams(query);
    if (!q.has('limit')) q.set('limit', '20');
    const [page, types] = await Promise.all([api('GET', `/webhook-endpoints/${enc(id)}/deliveries?${q}`).then((r) => r.body), eventTypes().catch(() => undefined)]);
    const rows = page._embedded?.deliveries ?? [];
    const out = h('div', { class: 'endpoint-out', 'aria-live': 'polite' });
    const { _links, secrets, ...settings } = ep;
    const filtered = query.get('status') || query.get('eventType');
    fill(main, heading,
      h('p', { class: 'crumbs' }, h('a', { href: '#/outbound' }, '← endpoints')),
      endpointActions(main, ep, res.etag, out),
      out,
      h('h2', {}, 'Settings'),
      members(settings, (k, v) => (k === 'eventTypes' ? cellText(v?.join(', ') ?? 'all events') : v && typeof v === 'object' ? pre(v, k) : cellText(v))),
      h('h2', {}, 'Signing secrets'),
      table([{ label: 'starts with', key: 'hint' }, { label: 'created', key: 'createdAt' }, { label: 'stops signing', cell: (s) => cellText(s.expiresAt ?? 'never') }], secrets ?? [], { caption: 'Signing secrets (newest first)' }),
      h('h2', {}, 'Deliveries'),
      deliveryFilters(ep, types, query),
      table([
        { label: 'delivery', cell: (d) => h('a', { href: href(`/outbound/${enc(id)}/${enc(d.id)}`) }, d.id) },
        { label: 'event', key: 'eventType' },
        { label: 'status', cell: (d) => h('span', { class: `badge ${d.status}` }, d.status) },
        { label: 'attempts', key: 'attempts' },
        { label: 'last status', key: 'lastStatusCode' },
        { label: 'last error', key: 'lastError' },
        { label: 'next attempt', key: 'nextAttemptAt' },
      ], rows, { caption: filtered ? `Deliveries to ${ep.url} (filtered)` : `Deliveries to ${ep.url}` }),
      logPager(`/outbound/${enc(id)}`, page, query),
      replayForm(ep, () => undefined));
  } catch (err) {
    fill(main, heading, problemBox(err));
  }
  mountEndpointHealth(main, id);
}

export async function endpointDeliveryView(main, { id, delivery }) {
  const heading = h('h1', {}, `Delivery ${delivery}`);
  fill(main, heading, h('p', {}, 'Loading…'));
  const url = `/webhook-endpoints/${enc(id)}/deliveries/${enc(delivery)}`;
  try {
    const d = (await api('GET', url)).body;
    const attempts = (await api('GET', `${url}/attempts`)).body;
    const out = h('div', { 'aria-live': 'polite' });
    const redeliver = h('button', { type: 'button', class: 'primary', onclick: async () => {
      redeliver.disabled = true;
      try {
        await api('POST', `${url}/attempts`);
        say('Redelivered: one attempt made now.');
        await endpointDeliveryView(main, { id, delivery });
      } catch (err) {
        redeliver.disabled = false;
        fill(out, problemBox(err));
      }
    } }, 'Redeliver now');
    fill(main, heading,
      h('p', { class: 'crumbs' }, h('a', { href: href(`/outbound/${enc(id)}`) }, `← endpoint ${id}`)),
      h('div', { class: 'toolbar' }, h('span', { class: `badge ${d.status}` }, d.status), redeliver),
      out,
      members(d, (k, v) => (v && typeof v === 'object' ? pre(v) : cellText(v))),
      h('h2', {}, 'Attempts'),
      attemptsTable(attempts._embedded?.attempts ?? [], 'Attempts at this delivery'));
  } catch (err) {
    fill(main, heading, problemBox(err));
  }
}
