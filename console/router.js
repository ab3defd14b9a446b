// Hash routes (`/_/#/c/characters?sort=name`): the server serves one shell, and a reload or a
// shared link opens the same view. Each view returns an optional cleanup (close a live stream).

const routes = [];
let cleanup;

/** Registers a view for a pattern like `/c/:collection/:id`. */
export function route(pattern, view) {
  const names = [];
  const re = new RegExp(`^${pattern.replace(/:(\w+)/g, (_, n) => (names.push(n), '([^/]+)'))}$`);
  routes.push({ re, names, view });
}

/** The current hash as `{ path, query }`. */
export function current() {
  const raw = location.hash.replace(/^#/, '') || '/';
  const q = raw.indexOf('?');
  return { path: q < 0 ? raw : raw.slice(0, q), query: new URLSearchParams(q < 0 ? '' : raw.slice(q + 1)) };
}

/** Goes to a console route (`/c/characters`), with an optional query. */
export function go(path, query) {
  const qs = query ? query.toString() : '';
  location.hash = `#${path}${qs ? `?${qs}` : ''}`;
}

/** `#/c/characters?…` for a link. */
export function href(path, query) {
  const qs = query ? query.toString() : '';
  return `#${path}${qs ? `?${qs}` : ''}`;
}

let generation = 0;

/**
 * Renders the view of the current hash into `main`. Each render gets an element of its own: a view
 * still awaiting its data when the hash changes again then fills a detached element, instead of
 * overwriting the view that replaced it, and its cleanup runs as soon as it returns.
 */
export async function render(main, notFound) {
  try {
    cleanup?.();
  } catch {
    // A view's cleanup failing must not stop the next view.
  }
  cleanup = undefined;
  const mine = ++generation;
  const root = document.createElement('div');
  root.className = 'view';
  main.replaceChildren(root);
  const { path, query } = current();
  for (const r of routes) {
    const m = r.re.exec(path);
    if (!m) continue;
    const params = Object.fromEntries(r.names.map((n, i) => [n, decodeURIComponent(m[i + 1])]));
    const done = await r.view(root, params, query);
    if (mine === generation) cleanup = done;
    else done?.();
    return;
  }
  notFound(root, path);
}
