// The event log, newest first (`GET /events?order=newest`), filtered by type and by resource, and
// live: events from `/events/stream` appear at the top as they are written. The stream is read with
// fetch (EventSource cannot send the Authorization header, and tokens never go in URLs).
import { api, readEventStream } from '../api.js';
import { go } from '../router.js';
import { cellText, field, fill, h, problemBox, table } from '../widgets.js';
import { logPager } from './log-pager.js';

/**
 * The record an event is about, linked to its console page: a collection's record, or the stored
 * delivery of a webhook event (`/webhooks/mail/events/ID` is the inbox's `#/inbox/mail/ID`). A deleted record has no page.
 */
function recordCell(e) {
  const to = e._links?.record?.href;
  if (!to || e.type?.endsWith('.deleted')) return cellText(e.recordId);
  const inbox = /^\/webhooks\/([^/]+)\/events\/(.+)$/.exec(to);
  return h('a', { href: inbox ? `#/inbox/${inbox[1]}/${inbox[2]}` : `#/c${to}` }, to);
}

const COLUMNS = [
  { label: 'type', key: 'type' },
  { label: 'record', cell: recordCell },
  { label: 'at', key: 'createdAt' },
  { label: 'data', cell: (e) => h('code', { class: 'clip' }, JSON.stringify(e.data)) },
  { label: 'event', key: 'id' },
];

let resourcesOnce;
/** The `resource` values the log can hold, from the OpenAPI document (the enum of `GET /events?resource`). */
async function eventResources() {
  resourcesOnce ??= api('GET', '/openapi.json').then((r) => {
    const params = r.body.paths?.['/events']?.get?.parameters ?? [];
    return params.find((p) => p.name === 'resource')?.schema?.items?.enum ?? [];
  });
  try {
    return await resourcesOnce;
  } catch (err) {
    resourcesOnce = undefined;
    throw err;
  }
}

/** The event types of a resource: a collection's changes, or a webhook source's received deliveries. */
function typesOf(resource) {
  const source = /^webhooks\/(.+)\/events$/.exec(resource);
  return source ? [`webhook.${source[1]}.received`] : ['created', 'updated', 'deleted'].map((a) => `${resource}.${a}`);
}

/** The type and resource filters: a form that changes the page's query (and so the live filter too). */
function filters(resources, query) {
  const pick = (name, values, label) => {
    const chosen = query.get(name) ?? '';
    const all = new Set(values);
    if (chosen) all.add(chosen);
    return field(label, h('select', { name }, h('option', { value: '' }, 'any'), [...all].map((v) => h('option', { value: v, selected: v === chosen }, v))));
  };
  const resource = pick('resource', resources, 'Resource');
  const type = pick('type', resources.flatMap(typesOf), 'Type');
  return h('form', { class: 'filters', 'aria-label': 'Filter the events', onsubmit: (e) => {
    e.preventDefault();
    const q = new URLSearchParams();
    for (const s of e.target.querySelectorAll('select')) if (s.value) q.set(s.name, s.value);
    go('/events', q);
  } }, type, resource, h('button', { type: 'submit' }, 'Filter'));
}

export async function eventsView(main, _params, query) {
  const heading = h('h1', {}, 'Events');
  fill(main, heading, h('p', {}, 'Loading…'));
  const q = new URLSearchParams(query);
  if (!q.has('limit')) q.set('limit', '50');
  q.set('order', 'newest');
  let page;
  let resources;
  try {
    [page, resources] = await Promise.all([api('GET', `/events?${q}`).then((r) => r.body), eventResources()]);
  } catch (err) {
    fill(main, heading, problemBox(err));
    return;
  }
  const events = page._embedded?.events ?? [];
  const type = query.get('type');
  const resource = query.get('resource');
  const filtered = Boolean(type || resource);
  const caption = `The log, newest first${filtered ? ' (filtered)' : ''}`;
  const logTable = h('div');
  const renderLog = () => fill(logTable, table(COLUMNS, events, { caption }));
  renderLog();
  const state = h('p', { class: 'live-state', role: 'status' }, 'Live: off');
  let received = 0;
  let controller;
  const stop = () => {
    controller?.abort();
    controller = undefined;
    toggle.textContent = 'Go live';
    toggle.setAttribute('aria-pressed', 'false');
    fill(state, 'Live: off');
  };
  const start = () => {
    controller = new AbortController();
    const mine = controller;
    toggle.textContent = 'Stop live';
    toggle.setAttribute('aria-pressed', 'true');
    fill(state, 'Live: connecting…');
    // The stream filters by type itself; the resource filter is applied here (the stream has none).
    readEventStream(`/events/stream${type ? `?type=${encodeURIComponent(type)}` : ''}`, {
      signal: mine.signal,
      onOpen: () => fill(state, 'Live: connected, waiting for events'),
      onEvent: (e) => {
        if (resource && e.resource !== resource) return;
        events.unshift(e);
        received++;
        renderLog();
        logTable.querySelector('tbody tr')?.classList.add('fresh');
        fill(state, `Live: connected, ${received} new event${received === 1 ? '' : 's'} at the top`);
      },
    })
      .then(() => {
        if (controller === mine) {
          stop();
          fill(state, 'Live: the server ended the stream');
        }
      })
      .catch((err) => {
        if (mine.signal.aborted) return;
        stop();
        fill(state, problemBox(err));
      });
  };
  const toggle = h('button', { type: 'button', class: 'primary', 'aria-pressed': 'false', onclick: () => (controller ? stop() : start()) }, 'Go live');
  const onFirstPage = !query.get('cursor');
  fill(main, heading,
    h('p', {}, 'Every create, update and delete, and every webhook received, newest first; each written in the same transaction as its change.'),
    filters(resources, query),
    // Live events go on top of the newest page; an older page would show them above older ones.
    onFirstPage ? [h('div', { class: 'toolbar' }, toggle), state] : h('p', { class: 'hint' }, 'Go back to the first page to follow events live.'),
    logTable,
    // On the first page, "Check for newer" would lead to this very page: going live is how to see them.
    logPager('/events', onFirstPage ? { _links: { ...page._links, poll: undefined } } : page, query));
  return stop;
}
