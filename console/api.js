// The console's only door to the server: the public HTTP API, with the bearer token of this tab.
// The token lives in sessionStorage under `restwell.token` (the browsable HTML pages read the same key):
// it survives a reload, dies with the tab, and is never put in a URL or a cookie.

const TOKEN_KEY = 'restwell.token';
const KIND_KEY = 'restwell.token.kind';

/** The bearer token of this tab, or null when browsing anonymously. */
export function token() {
  return sessionStorage.getItem(TOKEN_KEY);
}

/** How the tab signed in ("API key" or "OAuth client …"), for the header. */
export function tokenKind() {
  return sessionStorage.getItem(KIND_KEY);
}

export function setToken(value, kind) {
  sessionStorage.setItem(TOKEN_KEY, value);
  sessionStorage.setItem(KIND_KEY, kind);
}

export function signOut() {
  sessionStorage.removeItem(TOKEN_KEY);
  sessionStorage.removeItem(KIND_KEY);
}

/** A failed request: the problem document (RFC 9457) the server answered with, or one made up for a network failure. */
export class ApiError extends Error {
  constructor(status, problem, response) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
    this.response = response;
  }
}

/**
 * One request. Resolves with `{ status, headers, body, etag }` for 2xx/304, throws ApiError otherwise.
 * `body` is parsed JSON when the answer is JSON, else text.
 */
export async function api(method, url, { body, headers = {}, type = 'application/json' } = {}) {
  // HAL first: a resource on the json-server profile answers a HAL client with Restwell's own API.
  const h = { accept: 'application/hal+json, application/json;q=0.9', ...headers };
  const t = token();
  if (t) h.authorization = `Bearer ${t}`;
  let payload;
  if (body !== undefined) {
    h['content-type'] = type;
    payload = typeof body === 'string' ? body : JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(url, { method, headers: h, body: payload, cache: 'no-store', credentials: 'omit' });
  } catch (err) {
    throw new ApiError(0, { title: 'The server could not be reached', detail: String(err?.message ?? err) });
  }
  const text = await res.text();
  const ct = res.headers.get('content-type') || '';
  let parsed = text;
  if (/json/.test(ct) && text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  if (!res.ok && res.status !== 304) {
    const problem = parsed && typeof parsed === 'object' ? parsed : { title: `HTTP ${res.status}`, detail: text.slice(0, 500) };
    // OAuth endpoints answer RFC 6749 errors: { error, error_description }.
    if (problem.error && !problem.title) {
      problem.title = problem.error;
      problem.detail = problem.error_description;
    }
    throw new ApiError(res.status, { status: res.status, ...problem }, res);
  }
  return { status: res.status, headers: res.headers, body: parsed, etag: res.headers.get('etag') };
}

export const get = (url, headers) => api('GET', url, { headers });

/** OAuth 2.0 client credentials grant: the access token only; the client secret is not kept. */
export async function tokenFromClient(clientId, clientSecret) {
  const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret });
  const res = await api('POST', '/oauth/token', { body: form.toString(), type: 'application/x-www-form-urlencoded' });
  return res.body.access_token;
}

let openapi;
/** The API's OpenAPI document (field schemas, webhook sources), fetched once per page load. */
async function openApi() {
  openapi ??= get('/openapi.json').then((r) => r.body);
  try {
    return await openapi;
  } catch (err) {
    openapi = undefined;
    throw err;
  }
}

/** The component schema of a collection: `{ record, input }` (record has every member, input the writable ones). */
export async function collectionSchemas(collection) {
  const doc = await openApi();
  const post = doc.paths?.[`/${collection}`]?.post;
  // One record, or (bulk create) an array of them: the record's schema is the object variant.
  const body = post?.requestBody?.content?.['application/json']?.schema;
  const ref = body?.$ref ?? body?.oneOf?.find((s) => s.$ref)?.$ref;
  const input = ref ? resolve(doc, ref) : undefined;
  const getOp = doc.paths?.[`/${collection}/{id}`]?.get;
  const recRef = getOp?.responses?.['200']?.content?.['application/json']?.schema?.$ref;
  const record = recRef ? resolve(doc, recRef) : undefined;
  const listParams = (doc.paths?.[`/${collection}`]?.get?.parameters ?? []).map((p) => (p.$ref ? resolve(doc, p.$ref) : p)).filter((p) => p?.in === 'query');
  return { input, record, writable: Boolean(post), listParams: listParams.map((p) => p.name) };
}

function resolve(doc, ref) {
  return ref.replace(/^#\//, '').split('/').reduce((o, k) => o?.[k], doc);
}

/** The names of the configured inbound webhook sources (the `{source}` enum of the inbox routes). */
export async function webhookSources() {
  const doc = await openApi();
  const params = doc.paths?.['/webhooks/{source}/events']?.parameters ?? [];
  return params.find((p) => p.name === 'source')?.schema?.enum ?? [];
}

/**
 * Reads a Server-Sent Events response with fetch (EventSource cannot send an Authorization header,
 * and a token never goes in a URL), calling `onEvent(parsedData, id)` per `data:` frame. Resolves
 * when the stream ends; abort with `signal`.
 */
export async function readEventStream(url, { signal, lastEventId, onEvent, onOpen }) {
  const h = { accept: 'text/event-stream' };
  const t = token();
  if (t) h.authorization = `Bearer ${t}`;
  if (lastEventId) h['last-event-id'] = lastEventId;
  const res = await fetch(url, { headers: h, signal, cache: 'no-store', credentials: 'omit' });
  if (!res.ok) {
    const text = await res.text();
    let problem;
    try {
      problem = JSON.parse(text);
    } catch {
      problem = { title: `HTTP ${res.status}`, detail: text };
    }
    throw new ApiError(res.status, problem, res);
  }
  onOpen?.();
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value.replace(/\r\n?/g, '\n');
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let data = [];
      let id;
      for (const line of frame.split('\n')) {
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const val = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'data') data.push(val);
        else if (field === 'id') id = val;
      }
      if (!data.length) continue;
      try {
        onEvent(JSON.parse(data.join('\n')), id);
      } catch {
        onEvent(data.join('\n'), id);
      }
    }
  }
}
