// The webhook inbox: deliveries received per configured source (status, headers as stored, with
// credentials masked by the server, payload, attempts, reprocess). The outbound side is outbound.js.
import { api, webhookSources } from '../api.js';
import { href } from '../router.js';
import { cellText, fill, h, members, pre, problemBox, say, table } from '../widgets.js';
import { logPager } from './log-pager.js';
import { mountSourceHealth } from './webhook-health.js';

const enc = encodeURIComponent;

export async function inboxView(main) {
  const heading = h('h1', {}, 'Webhook inbox');
  fill(main, heading, h('p', {}, 'Loading…'));
  try {
    const sources = await webhookSources();
    fill(main, heading,
      h('p', {}, 'Deliveries received from each configured source, as stored before they were acknowledged.'),
      sources.length ? h('ul', { class: 'collections' }, sources.map((s) => h('li', {}, h('a', { href: href(`/inbox/${enc(s)}`) }, s), h('span', { class: 'hint' }, ` — POST /webhooks/${s}`)))) : h('p', {}, 'No webhook source is configured.'));
  } catch (err) {
    fill(main, heading, problemBox(err));
  }
}

export async function sourceView(main, { source }, query) {
  const heading = h('h1', {}, `Inbox: ${source}`);
  fill(main, heading, h('p', {}, 'Loading…'));
  const q = new URLSearchParams(query);
  if (!q.has('limit')) q.set('limit', '20');
  const status = query.get('status') ?? '';
  const statusLinks = h('p', { class: 'chips' }, 'Status: ', ['', 'received', 'processed', 'failed'].map((s) => {
    const sq = new URLSearchParams();
    if (s) sq.set('status', s);
    return [h('a', { href: href(`/inbox/${enc(source)}`, sq), 'aria-current': s === status ? 'true' : undefined }, s || 'all'), ' '];
  }));
  try {
    const page = (await api('GET', `/webhooks/${enc(source)}/events?${q}`)).body;
    const rows = page._embedded?.deliveries ?? [];
    const cols = [
      { label: 'delivery', cell: (d) => h('a', { href: href(`/inbox/${enc(source)}/${enc(d.id)}`) }, d.id) },
      { label: 'received', key: 'receivedAt' },
      { label: 'status', cell: (d) => h('span', { class: `badge ${d.status}` }, d.status) },
      { label: 'attempts', key: 'attempts' },
      { label: 'event id', key: 'eventId' },
      { label: 'last error', key: 'lastError' },
    ];
    fill(main, heading, h('p', { class: 'crumbs' }, h('a', { href: '#/inbox' }, '← sources')), statusLinks, table(cols, rows, { caption: `Deliveries from ${source}` }), logPager(`/inbox/${enc(source)}`, page, query));
  } catch (err) {
    fill(main, heading, statusLinks, problemBox(err));
  }
  mountSourceHealth(main, source);
}

/** A delivery's body: pretty JSON when it parses, else the text (or base64 as stored). */
function payload(d) {
  if (d.bodyEncoding === 'base64') return [h('p', { class: 'hint' }, 'Binary body, shown as base64'), pre(d.body, 'Payload (base64)')];
  try {
    return pre(JSON.parse(d.body), 'Payload');
  } catch {
    return pre(d.body ?? '', 'Payload');
  }
}

/** The attempts at an inbound or outbound delivery (outbound.js shows its own with it). */
export function attemptsTable(attempts, caption) {
  return table(
    [
      { label: '#', key: 'number' },
      { label: 'at', cell: (a) => cellText(a.at ?? a.startedAt) },
      // Inbound attempts have an outcome; outbound ones the subscriber's status code (null: no answer).
      { label: 'outcome', cell: (a) => cellText(a.outcome ?? (a.statusCode === undefined ? '' : a.statusCode ?? 'no response')) },
      { label: 'details', cell: (a) => cellText(a.error ?? a.result ?? a.responseExcerpt ?? '') },
      ...(attempts.some((a) => a.trigger) ? [{ label: 'trigger', key: 'trigger' }] : []),
    ],
    attempts,
    { caption },
  );
}

export async function deliveryView(main, { source, id }) {
  const heading = h('h1', {}, `Delivery ${id}`);
  fill(main, heading, h('p', {}, 'Loading…'));
  const url = `/webhooks/${enc(source)}/events/${enc(id)}`;
  let d;
  try {
    d = (await api('GET', url)).body;
  } catch (err) {
    fill(main, heading, problemBox(err));
    return;
  }
  const out = h('div', { 'aria-live': 'polite' });
  const reprocess = d.status === 'processed'
    ? h('p', { class: 'hint' }, 'Processed: its actions ran; running them again would repeat them.')
    : h('button', { type: 'button', class: 'primary', onclick: async () => {
        reprocess.disabled = true;
        try {
          const res = await api('POST', `${url}/attempts`);
          say(`Attempt ${res.body.number ?? ''} made: the delivery is now ${res.body.delivery?.status ?? 'updated'}.`);
          await deliveryView(main, { source, id });
        } catch (err) {
          reprocess.disabled = false;
          fill(out, problemBox(err));
        }
      } }, 'Reprocess now');
  const { headers, body, attemptLog, response, ...summary } = d;
  fill(main,
    heading,
    h('p', { class: 'crumbs' }, h('a', { href: href(`/inbox/${enc(source)}`) }, `← inbox: ${source}`)),
    h('div', { class: 'toolbar' }, h('span', { class: `badge ${d.status}` }, d.status), reprocess),
    out,
    h('h2', {}, 'Summary'),
    members(summary, (k, v) => (v && typeof v === 'object' ? pre(v) : cellText(v))),
    h('h2', {}, 'Headers'),
    h('p', { class: 'hint' }, 'As stored: credentials (signatures, authorization, tokens) are masked by the server.'),
    table([{ label: 'name', key: 0 }, { label: 'value', key: 1 }], Object.entries(headers ?? {}).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : v]), { caption: 'Request headers' }),
    h('h2', {}, 'Payload'),
    h('p', { class: 'hint' }, d.contentType ?? ''),
    payload(d),
    h('h2', {}, 'Response sent'),
    pre(response ?? null, 'Response sent'),
    h('h2', {}, 'Attempts'),
    attemptsTable(attemptLog ?? [], 'Attempts at running its actions'));
}
