// The pager of a log page (the event log, an inbox, a delivery log), from the server's links:
// "Next" only while the server says more entries exist now (`next`), so paging ends at the end of
// the log; there, "Check for newer" follows `poll`, where entries added later will appear.
import { href } from '../router.js';
import { h } from '../widgets.js';

/** A console link to the page a server link names, at the console path `path`. */
function pageLink(path, link, rel, label) {
  return h('a', { class: 'button', rel, href: href(path, new URL(link.href, location.origin).searchParams) }, label);
}

/** First (when not on it), then Next while more exist, else Check for newer. */
export function logPager(path, page, query) {
  const { next, poll } = page._links ?? {};
  const items = [];
  if (query.has('cursor')) {
    const first = new URLSearchParams(query);
    first.delete('cursor');
    items.push(h('a', { class: 'button', href: href(path, first) }, '« First'));
  }
  if (next) items.push(pageLink(path, next, 'next', 'Next ›'));
  else if (poll) items.push(pageLink(path, poll, 'poll', 'Check for newer ›'));
  return h('nav', { class: 'pager', 'aria-label': 'Pages' }, items);
}
