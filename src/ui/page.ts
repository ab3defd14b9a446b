/**
 * The browsable HTML view of any JSON representation: the same data, with every `href` a link,
 * so a person can walk the API from the root in a browser.
 */
export function renderPage(title: string, body: unknown): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Restwell</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:60rem;padding:0 1rem;color:#1d2430}
h1{font-size:1.3rem}pre{background:#f5f7fa;border:1px solid #dde3ea;border-radius:6px;padding:1rem;overflow:auto}
a{color:#0b5cad}header a{margin-right:1rem}
</style></head>
<body><header><a href="/">API root</a><a href="/openapi.json">OpenAPI</a></header>
<h1>${escapeHtml(title)}</h1>
<pre>${linkify(escapeHtml(JSON.stringify(body, null, 2)))}</pre>
</body></html>`;
}

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function linkify(escapedJson: string): string {
  // Only `"href": "/…"` values become links: same-origin paths, never a script URL.
  return escapedJson.replace(/(&quot;href&quot;: &quot;)(\/[^&]*?)(&quot;)/g, (_m, a, href, b) => `${a}<a href="${href}">${href}</a>${b}`);
}
