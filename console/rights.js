// What this tab's token may do, so the console offers only actions that will succeed: `GET /me`
// (the server's own access rules) when signed in; anonymous, what the OpenAPI document marks public.
import { api, get, token } from './api.js';

let cached;

/** The `GET /me` answer for the current token, or null when anonymous (or the token is refused). */
export function me() {
  const t = token();
  if (!t) return Promise.resolve(null);
  if (cached?.token !== t) cached = { token: t, promise: api('GET', '/me').then((r) => r.body, () => null) };
  return cached.promise;
}

let doc;
/** The OpenAPI document, for what an anonymous caller may do (operations without security). */
function openApi() {
  doc ??= get('/openapi.json').then((r) => r.body, (err) => {
    doc = undefined;
    throw err;
  });
  return doc;
}

const NONE = Object.freeze({ read: false, create: false, update: false, delete: false });

/** `{ read, create, update, delete }` of one collection for this tab. */
export async function rightsOf(collection) {
  const mine = await me();
  if (mine) return mine.collections?.[collection] ?? NONE;
  let paths;
  try {
    paths = (await openApi()).paths ?? {};
  } catch {
    return { ...NONE, read: true };
  }
  // An operation whose security is [] (or lists an empty requirement) is open to anonymous callers.
  const open = (op) => Boolean(op) && (op.security === undefined || op.security.length === 0 || op.security.some((s) => Object.keys(s).length === 0));
  const list = paths[`/${collection}`] ?? {};
  const item = paths[`/${collection}/{id}`] ?? {};
  return { read: open(list.get), create: open(list.post), update: open(item.patch), delete: open(item.delete) };
}
