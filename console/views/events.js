// The event log: a page of `GET /events`, and live events from `/events/stream` read with fetch()
// (EventSource cannot send the Authorization header, and tokens never go in URLs).
import { api, readEventStream } from '../api.js';
import { cellText, fill, h, problemBox, table } from '../widgets.js';
import { logPager } from './log-pager.js';

const COLUMNS = [
  { label: 'event', key: 'id' },
  { label: 'type', key: 'type' },
  { label: 'record', cell: (e) => (e._links?.record && e.type && !e.type.endsWith('.deleted') ? h('a', { href: `#/c${e._links.record.href}` }, e._links.record.href) : cellText(e.recordId)) },
  { label: 'at', key: 'createdAt' },
  { label: 'data', cell: (e) => h('code', { class: 'clip' }, JSON.stringify(e.data)) },
];

export async function eventsView(main, _params, query) {
  const heading = h('h1', {}, 'Events');
  fill(main, heading, h('p', {}, 'Loading…'));
  const q = new URLSearchParams(query);
  if (!q.has('limit')) q.set('limit', '50');
  let page;
  try {
    page = (await api('GET', `/events?${q}`)).body;
  } catch (err) {
    fill(main, heading, problemBox(err));
    return;
  }
  const events = page._embedded?.events ?? [];
  const liveRows = [];
  const liveTable = h('div');
  const renderLive = () => fill(liveTable, table(COLUMNS, liveRows, { caption: 'Live: events as they are written, newest first' }));
  renderLive();
  const state = h('p', { class: 'live-state', role: 'status' }, 'Live: off');
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
    readEventStream('/events/stream', {
      signal: mine.signal,
      onOpen: () => fill(state, 'Live: connected, waiting for events'),
      onEvent: (e) => {
        liveRows.unshift(e);
        renderLive();
        fill(state, `Live: connected, ${liveRows.length} event${liveRows.length === 1 ? '' : 's'} received`);
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
  const nav = logPager('/events', page, query);
  fill(main, heading,
    h('p', {}, 'Every create, update and delete, oldest first, written in the same transaction as the change.'),
    h('div', { class: 'toolbar' }, toggle), state, liveTable,
    table(COLUMNS, events, { caption: 'The log, oldest first' }), nav);
  return stop;
}
