// The console's entry: the header (sections, session), the routes, and re-rendering on navigation.
import { signOut, token, tokenKind } from './api.js';
import { current, render, route } from './router.js';
import { ageStatus, fill, h } from './widgets.js';
import { homeView, listView } from './views/collections.js';
import { recordView, editView, newView } from './views/record.js';
import { inboxView, sourceView, deliveryView } from './views/inbox.js';
import { endpointsView, endpointView, endpointDeliveryView, newEndpointView, editEndpointView } from './views/outbound.js';
import { eventsView } from './views/events.js';
import { credentialsView } from './views/credentials.js';
import { signInView } from './views/signin.js';
import { dashboardView } from './views/dashboard.js';
import { applyTheme, themeToggle } from './theme.js';
import { me } from './rights.js';

applyTheme();

// `#/`: the dashboard once signed in with a token that may read the metrics, else the collections home.
route('/', dashboardView);
route('/c', homeView);
route('/signin', signInView);
route('/c/:collection', listView);
route('/c/:collection/new', newView);
route('/c/:collection/:id', recordView);
route('/c/:collection/:id/edit', editView);
route('/inbox', inboxView);
route('/inbox/:source', sourceView);
route('/inbox/:source/:id', deliveryView);
route('/outbound', endpointsView);
route('/outbound/new', newEndpointView);
route('/outbound/:id', endpointView);
route('/outbound/:id/edit', editEndpointView);
route('/outbound/:id/:delivery', endpointDeliveryView);
route('/events', eventsView);
route('/credentials', credentialsView);

const SECTIONS = [
  ['/', 'Dashboard'],
  ['/c', 'Collections'],
  ['/inbox', 'Webhook inbox'],
  ['/outbound', 'Outbound webhooks'],
  ['/events', 'Events'],
  ['/credentials', 'API keys & clients'],
];

function header() {
  const { path } = current();
  fill(
    document.getElementById('nav'),
    // The dashboard is for signed-in tabs; an anonymous `#/` is the collections home.
    h('ul', {}, SECTIONS.filter(([p]) => p !== '/' || token()).map(([p, label]) => {
      const active = p === '/' ? path === '/' : p === '/c' ? path === '/c' || path.startsWith('/c/') || (path === '/' && !token()) : path.startsWith(p);
      return h('li', { 'data-section': p }, h('a', { href: `#${p}`, 'aria-current': active ? 'page' : undefined }, label));
    })),
  );
  // A token that may not read the metrics has no dashboard to go to (`#/` shows it the collections).
  me().then((rights) => {
    if (rights && !rights.metrics) document.querySelector('#nav li[data-section="/"]')?.remove();
  });
  const session = document.getElementById('session');
  if (token()) {
    fill(session, themeToggle(), h('span', { class: 'who' }, `Signed in (${tokenKind() ?? 'token'})`), ' ', h('button', { type: 'button', id: 'sign-out', onclick: () => {
      signOut();
      location.hash = '#/signin';
      show();
    } }, 'Sign out'));
  } else {
    fill(session, themeToggle(), h('span', { class: 'who' }, 'Anonymous'), ' ', h('a', { href: '#/signin', class: 'button', id: 'sign-in-link' }, 'Sign in'));
  }
}

function notFound(main, path) {
  fill(main, h('h1', {}, 'Not found'), h('p', {}, `The console has no page ${path}.`), h('p', {}, h('a', { href: '#/c' }, 'Back to the collections')));
}

async function show() {
  ageStatus();
  header();
  const main = document.getElementById('main');
  await render(main, notFound);
  // Move focus to the new content for keyboard and screen-reader users, unless a view focused something itself.
  if (document.activeElement === document.body || !main.contains(document.activeElement)) {
    const heading = main.querySelector('h1');
    if (heading) {
      heading.tabIndex = -1;
      heading.focus({ preventScroll: true });
    }
  }
}

addEventListener('hashchange', show);
show();
