import { BROWSE_SCRIPT } from './browse-script.js';
import { escapeHtml } from './html.js';
import { BROWSE_STYLE } from './page-assets.js';

/**
 * The frame of every browsable page: the nav header (API root, docs, OpenAPI, the web console)
 * with the token box, then `main`, then the browse script. `main` must already be HTML whose
 * data was escaped.
 */
export function layout(title: string, main: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${escapeHtml(title)} · Restwell</title>
<style>${BROWSE_STYLE}</style></head>
<body><header class="rw-nav"><a href="/">API root</a><a href="/docs">Docs</a><a href="/openapi.json">OpenAPI</a><a href="/_/">Web console</a>
<form id="rw-token" autocomplete="off"><label for="rw-token-input">Bearer token</label><input id="rw-token-input" type="password" placeholder="paste an API key or access token" autocomplete="off"><button type="submit">Save</button><button type="button" data-clear>Clear</button><span data-token-state aria-live="polite"></span></form></header>
<main>
${main}
</main>
<script>${BROWSE_SCRIPT}</script>
</body></html>`;
}
