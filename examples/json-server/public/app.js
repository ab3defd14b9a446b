// A posts browser written for json-server: plain fetch, relative URLs, no build step.
// Run it with json-server's --static (or Restwell's `serve db.json --static`), which serves
// this folder and the API from one origin.

const LIMIT = 5;

const $ = (selector, root = document) => root.querySelector(selector);
const postsList = $('#posts');
const statusLine = $('#status');

/** The URL of the page on screen, so writes can refresh it; and its Link relations. */
let current = '';
let links = {};

function say(text, isError = false) {
  statusLine.textContent = text;
  statusLine.classList.toggle('error', isError);
}

/** fetch + res.json(), as every json-server tutorial does; a non-2xx answer becomes an Error. */
async function api(url, method = 'GET', body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const res = await fetch(url, init);
  const data = await res.json();
  if (!res.ok) {
    const why = [data.title, data.detail].filter(Boolean).join(': ');
    throw new Error(`${method} ${url} failed with ${res.status}${why ? ` (${why})` : ''}`);
  }
  return { res, data };
}

/** `<url>; rel="next", <url>; rel="last"` → { next: url, last: url }. */
function parseLink(header) {
  const result = {};
  for (const m of (header ?? '').matchAll(/<([^>]*)>\s*;\s*rel="?([^",;]+)"?/g)) result[m[2]] = m[1];
  return result;
}

/** The first page of what the search form asks for. */
function firstPageUrl() {
  const [sort, order] = $('#sort').value.split(':');
  const params = new URLSearchParams({ _page: '1', _limit: String(LIMIT), _sort: sort, _order: order, _expand: 'user', _embed: 'comments' });
  const words = $('#search').value.trim();
  if (words) params.set($('#search-in').value, words);
  return `/posts?${params}`;
}

async function load(url) {
  postsList.setAttribute('aria-busy', 'true');
  try {
    const { res, data: posts } = await api(url);
    const total = Number(res.headers.get('X-Total-Count'));
    // A delete can empty the last page (and a page past the end has no Link): show the new last page.
    const target = new URL(url, location.href);
    const lastPage = Math.ceil(total / LIMIT);
    if (posts.length === 0 && lastPage > 0 && Number(target.searchParams.get('_page')) > lastPage) {
      target.searchParams.set('_page', String(lastPage));
      return load(target.href);
    }
    current = url;
    links = parseLink(res.headers.get('Link'));
    render(posts, total, url);
  } catch (err) {
    say(err.message, true);
  } finally {
    postsList.setAttribute('aria-busy', 'false');
  }
}

function render(posts, total, url) {
  postsList.replaceChildren(...posts.map(renderPost));
  const page = Number(new URL(url, location.href).searchParams.get('_page') ?? 1);
  const pages = Math.max(1, Math.ceil(total / LIMIT));
  $('#page-info').textContent = `Page ${page} of ${pages} · ${total} posts`;
  $('#prev').disabled = !links.prev;
  $('#next').disabled = !links.next;
  postsList.dataset.page = String(page);
}

function renderPost(post) {
  const item = $('#post-template').content.firstElementChild.cloneNode(true);
  item.dataset.id = post.id;
  $('.title', item).textContent = post.title;
  $('.author', item).textContent = post.user ? post.user.name : 'unknown';
  $('.views', item).textContent = post.views ?? 0;
  const comments = post.comments ?? [];
  $('.comment-count', item).textContent = `${comments.length} comment${comments.length === 1 ? '' : 's'}`;
  $('.comments ul', item).replaceChildren(...comments.map((c) => Object.assign(document.createElement('li'), { textContent: c.body })));

  const rename = $('.edit-title', item);
  rename.elements.title.value = post.title;
  rename.addEventListener('submit', async (event) => {
    event.preventDefault();
    await write(() => api(`/posts/${post.id}`, 'PATCH', { title: rename.elements.title.value }), `Renamed post ${post.id}`);
  });

  const replace = $('.replace', item);
  replace.elements.title.value = post.title;
  replace.elements.views.value = post.views ?? 0;
  replace.addEventListener('submit', async (event) => {
    event.preventDefault();
    // PUT replaces the whole record: send back what was read, without the embedded and expanded members.
    const { user, comments: _embedded, ...record } = post;
    const body = { ...record, title: replace.elements.title.value, views: Number(replace.elements.views.value) };
    await write(() => api(`/posts/${post.id}`, 'PUT', body), `Replaced post ${post.id}`);
  });

  $('.delete', item).addEventListener('click', async () => {
    await write(() => api(`/posts/${post.id}`, 'DELETE'), `Deleted post ${post.id}`);
  });
  return item;
}

/** Runs a write, says how it went, and shows the current page again. */
async function write(action, done) {
  try {
    await action();
    say(done);
  } catch (err) {
    say(err.message, true);
  }
  await load(current);
}

async function loadProfile() {
  try {
    const { data } = await api('/profile');
    $('#profile').textContent = `Profile: ${data.name}`;
  } catch (err) {
    $('#profile').textContent = `No profile (${err.message})`;
  }
}

async function loadUsers() {
  try {
    const { data: users } = await api('/users');
    $('#new-user').replaceChildren(...users.map((u) => Object.assign(document.createElement('option'), { value: u.id, textContent: u.name })));
  } catch (err) {
    say(err.message, true);
  }
}

$('#query').addEventListener('submit', (event) => {
  event.preventDefault();
  load(firstPageUrl());
});
$('#sort').addEventListener('change', () => load(firstPageUrl()));
$('#prev').addEventListener('click', () => links.prev && load(links.prev));
$('#next').addEventListener('click', () => links.next && load(links.next));

$('#create').addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = event.target;
  const body = {
    title: form.elements.title.value,
    views: Number(form.elements.views.value),
    userId: Number(form.elements.userId.value),
    publishedAt: new Date().toISOString(),
    tags: [],
  };
  try {
    const { data } = await api('/posts', 'POST', body);
    say(`Created post ${data.id}`);
    form.reset();
  } catch (err) {
    say(err.message, true);
  }
  // Newest first by default, so a new post shows at the top of the first page.
  await load(firstPageUrl());
});

loadProfile();
loadUsers();
load(firstPageUrl());
