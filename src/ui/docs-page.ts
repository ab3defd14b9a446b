import { escapeHtml } from './html.js';

type Json = Record<string, any>;
const METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete', 'options'];

/**
 * The docs page: an OpenAPI document rendered as one self-contained HTML page — every operation
 * with its parameters, bodies, responses and headers, then every schema. No scripts, no CDN:
 * it works offline and behind any firewall.
 */
export function renderDocsPage(doc: Json): string {
  const ops = operations(doc);
  const tags: Json[] = doc.tags ?? [];
  const body = tags
    .map((tag) => {
      const list = ops.filter((o) => (o.op.tags ?? [])[0] === tag.name);
      if (!list.length) return '';
      return `<section><h2 id="tag-${attr(tag.name)}">${escapeHtml(tag.name)}</h2>${tag.description ? `<p>${inline(tag.description)}</p>` : ''}${list.map((o) => operation(doc, o)).join('')}</section>`;
    })
    .join('');
  const toc = tags
    .map((t) => `<li><a href="#tag-${attr(t.name)}">${escapeHtml(t.name)}</a><ul>${ops.filter((o) => (o.op.tags ?? [])[0] === t.name).map((o) => `<li><a href="#op-${attr(o.op.operationId)}"><b>${o.method.toUpperCase()}</b> ${escapeHtml(o.path)}</a></li>`).join('')}</ul></li>`)
    .join('');
  // What subscribers receive (OpenAPI `webhooks`): one POST per event type, named by the type.
  const webhooks = Object.entries<Json>(doc.webhooks ?? {}).flatMap(([type, item]) => (item.post ? [operation(doc, { path: type, method: 'post', op: item.post, pathParams: [] })] : [])).join('');
  const schemas = Object.entries<Json>(doc.components?.schemas ?? {})
    .map(([name, s]) => `<h3 id="schema-${attr(name)}">${escapeHtml(name)}</h3>${s.description ? `<p>${inline(s.description)}</p>` : ''}<pre>${json(s)}</pre>`)
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(doc.info?.title ?? 'API')} · docs</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:64rem;padding:0 1rem;color:#1d2430}
h2{border-bottom:2px solid #dde3ea;margin-top:2.5rem}h3{margin-top:1.8rem}
pre{background:#f5f7fa;border:1px solid #dde3ea;border-radius:6px;padding:.7rem;overflow:auto;font-size:13px}
table{border-collapse:collapse;width:100%;font-size:14px}td,th{border-top:1px solid #dde3ea;padding:.3rem .5rem;text-align:left;vertical-align:top}
code{background:#f0f2f5;padding:0 .2rem;border-radius:3px}a{color:#0b5cad}.m{font-weight:700;color:#fff;background:#0b5cad;border-radius:4px;padding:0 .4rem;margin-right:.4rem}
.op{border:1px solid #dde3ea;border-radius:8px;padding:0 1rem 1rem;margin:1rem 0}header a{margin-right:1rem}nav ul ul{columns:2;font-size:14px}
</style></head>
<body><header><a href="/">API root</a><a href="/openapi.json">OpenAPI document</a></header>
<h1>${escapeHtml(doc.info?.title ?? 'API')} <small>${escapeHtml(String(doc.info?.version ?? ''))}</small></h1>
${markdown(doc.info?.description ?? '')}
<p>Server: <code>${escapeHtml((doc.servers ?? []).map((s: Json) => s.url).join(', ') || '/')}</code> · OpenAPI ${escapeHtml(doc.openapi ?? '')}</p>
<nav><h2>Operations</h2><ul>${toc}</ul></nav>
${body}
${webhooks ? `<section><h2 id="webhooks">Webhooks</h2><p>The requests a subscribed endpoint receives, one per event type (<a href="/event-types">/event-types</a>).</p>${webhooks}</section>` : ''}
<section><h2 id="schemas">Schemas</h2>${schemas}</section>
</body></html>`;
}

interface Op {
  path: string;
  method: string;
  op: Json;
  pathParams: Json[];
}

function operations(doc: Json): Op[] {
  return Object.entries<Json>(doc.paths ?? {}).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({ path, method, op: item[method], pathParams: item.parameters ?? [] })),
  );
}

function operation(doc: Json, { path, method, op, pathParams }: Op): string {
  const params = [...pathParams, ...(op.parameters ?? [])].map((p) => resolve(doc, p));
  const paramRows = params
    .map((p) => `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${p.in}</td><td>${schemaText(p.schema)}</td><td>${p.required ? 'required' : ''}</td><td>${inline(p.description ?? '')}</td></tr>`)
    .join('');
  const body = op.requestBody ? resolve(doc, op.requestBody) : undefined;
  const responses = Object.entries<Json>(op.responses ?? {})
    .map(([status, r0]) => {
      const r = resolve(doc, r0);
      // What a browser is served instead (the document's x-alternative-content) is listed with the rest.
      const headers = Object.keys(r.headers ?? {}).map((h) => `<code>${escapeHtml(h)}</code>`).join(' ');
      return `<tr><td><b>${escapeHtml(status)}</b></td><td>${markdown(r.description ?? '')}</td><td>${headers}</td><td>${content({ ...r.content, ...r['x-alternative-content'] })}</td></tr>`;
    })
    .join('');
  return `<div class="op" id="op-${attr(op.operationId)}"><h3><span class="m">${method.toUpperCase()}</span><code>${escapeHtml(path)}</code></h3>
<p><b>${escapeHtml(op.summary ?? '')}</b> <small>(${escapeHtml(op.operationId ?? '')})</small></p><p>${inline(op.description ?? '')}</p>
${paramRows ? `<h4>Parameters</h4><table><tr><th>Name</th><th>In</th><th>Schema</th><th></th><th>Description</th></tr>${paramRows}</table>` : ''}
${body ? `<h4>Request body${body.required ? ' (required)' : ''}</h4><p>${inline(body.description ?? '')}</p>${content(body.content)}` : ''}
<h4>Responses</h4><table><tr><th>Status</th><th>Description</th><th>Headers</th><th>Body</th></tr>${responses}</table></div>`;
}

function content(c: Json | undefined): string {
  if (!c) return '';
  return Object.entries<Json>(c).map(([type, m]) => `<div><code>${escapeHtml(type)}</code>: ${schemaText(m.schema)}</div>`).join('');
}

/** A one-line reading of a schema, linking to named schemas. */
function schemaText(s: Json | undefined): string {
  if (!s) return 'any';
  if (s.$ref) return refLink(s.$ref);
  if (s.type === 'array') return `array of ${schemaText(s.items)}`;
  if (s.enum) return `one of ${s.enum.map((v: unknown) => `<code>${escapeHtml(JSON.stringify(v))}</code>`).join(', ')}`;
  if (s.type === 'object' && s.properties) return `<details><summary>object</summary><pre>${json(s)}</pre></details>`;
  const type = [s.type ?? 'any'].flat().join(' | ');
  const facets = ['format', 'minimum', 'maximum', 'default', 'pattern', 'maxLength'].filter((k) => s[k] !== undefined).map((k) => `${k} ${escapeHtml(JSON.stringify(s[k]))}`);
  return `${escapeHtml(type)}${facets.length ? ` <small>(${facets.join(', ')})</small>` : ''}`;
}

function refLink(ref: string): string {
  const name = ref.split('/').pop()!;
  return `<a href="#schema-${attr(name)}">${escapeHtml(name)}</a>`;
}

/** Follows a local `$ref` to a parameter, response or request body. */
function resolve(doc: Json, o: Json): Json {
  if (!o?.$ref) return o;
  return o.$ref.slice(2).split('/').reduce((at: Json | undefined, key: string) => at?.[key], doc) ?? {};
}

function json(s: unknown): string {
  return escapeHtml(JSON.stringify(s, null, 2)).replace(/&quot;#\/components\/schemas\/([A-Za-z0-9._-]+)&quot;/g, (_m, n) => `&quot;<a href="#schema-${n}">#/components/schemas/${n}</a>&quot;`);
}

/** The little Markdown the generator writes: `code`, **bold**, paragraphs and `- ` lists. */
function markdown(text: string): string {
  return text
    .split(/\n\n+/)
    .map((block) => {
      const lines = block.split('\n');
      if (lines.every((l) => l.startsWith('- '))) return `<ul>${lines.map((l) => `<li>${inline(l.slice(2))}</li>`).join('')}</ul>`;
      return `<p>${inline(block)}</p>`;
    })
    .join('');
}

function inline(text: string): string {
  return escapeHtml(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');
}

function attr(s: string): string {
  return escapeHtml(String(s)).replace(/\s/g, '-');
}
