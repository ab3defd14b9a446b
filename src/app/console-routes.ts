import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { extname } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { NotFoundError } from '../core/errors.js';
import type { Json } from '../http/openapi/components.js';
import { header, headerParameter } from '../http/openapi/headers.js';
import type { OperationDoc } from '../http/openapi/operation-doc.js';
import type { SchemaContext } from '../http/openapi/schemas.js';
import { fixedEtag, sendFixed } from '../http/respond.js';
import { documented, type Route } from '../http/route.js';
import type { AppContext } from './context.js';

/**
 * The web console's files: plain ES modules, CSS and one HTML shell, shipped as they are (no build
 * step). `../../console/` is the same folder from src/app/ (tsx) and dist/app/ (the build).
 */
export const CONSOLE_DIR = new URL('../../console/', import.meta.url);

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/**
 * No inline script or style, nothing fetched from elsewhere, no framing: API data the console shows
 * can never run as code, and the token in sessionStorage is reachable only by the console's own modules.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

interface Asset {
  type: string;
  body: Buffer;
  etag: string;
}

/**
 * Every servable file, read once, by its path under /_/ (`app.js`, `views/record.js`). A request is
 * looked up in this map and nothing else, so no path it names can reach a file outside the folder.
 */
function loadAssets(dir: URL, prefix = ''): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      for (const [name, a] of loadAssets(new URL(`${entry.name}/`, dir), `${prefix}${entry.name}/`)) assets.set(name, a);
      continue;
    }
    const type = TYPES[extname(entry.name)];
    if (!entry.isFile() || !type) continue;
    const body = readFileSync(new URL(entry.name, dir));
    assets.set(prefix + entry.name, { type, body, etag: fixedEtag(body) });
  }
  return assets;
}

/**
 * Files of installed packages the console uses, by the name it asks for under /_/vendor/: a fixed
 * list (no request names a path in node_modules), resolved through Node's own module resolution.
 */
const VENDOR: Record<string, string> = {
  'uPlot.esm.js': 'uplot/dist/uPlot.esm.js',
  'uPlot.min.css': 'uplot/dist/uPlot.min.css',
};

function loadVendor(): Map<string, Asset> {
  const require = createRequire(import.meta.url);
  const out = new Map<string, Asset>();
  for (const [name, spec] of Object.entries(VENDOR)) {
    const body = readFileSync(require.resolve(spec));
    out.set(name, { type: TYPES[extname(name)]!, body, etag: fixedEtag(body) });
  }
  return out;
}

let vendorCache: Map<string, Asset> | undefined;

/** `GET /_/vendor/{asset}`: one of the {@link VENDOR} files, read on first use. */
function serveVendor() {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const { asset: name } = request.params as { asset: string };
    const found = Object.hasOwn(VENDOR, name) ? (vendorCache ??= loadVendor()).get(name) : undefined;
    if (!found) throw new NotFoundError(`the console has no library file ${name}; it serves ${Object.keys(VENDOR).join(', ')}`);
    return send(request, reply, found);
  };
}

let cache: Map<string, Asset> | undefined;
/** The assets, read on first use (a server that never serves the console never reads them). */
function assets(): Map<string, Asset> {
  return (cache ??= loadAssets(CONSOLE_DIR));
}

function send(request: FastifyRequest, reply: FastifyReply, asset: Asset) {
  reply
    .header('content-security-policy', CONSOLE_CSP)
    .header('x-frame-options', 'DENY')
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer');
  // Revalidated on every use (304 while unchanged): the file names carry no version.
  return sendFixed(request, reply, asset);
}

/** `GET /_`: the console's HTML shell. */
function serveShell() {
  return async (request: FastifyRequest, reply: FastifyReply) => send(request, reply, assets().get('index.html')!);
}

/**
 * `GET /_/{asset}` and `GET /_/views/{asset}`: a file of the console. A name without an extension
 * is a page of the console (or `/_/` itself), so it gets the shell; any other unknown name is 404.
 */
function serveAsset(folder: string) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const { asset: name } = request.params as { asset: string };
    const found = name === 'index.html' ? undefined : assets().get(folder + name);
    if (found) return send(request, reply, found);
    if (!folder && !name.includes('.')) return send(request, reply, assets().get('index.html')!);
    throw new NotFoundError(`the console has no file ${folder}${name}`);
  };
}

const validators = (ctx: SchemaContext) => ({
  ETag: header(ctx, 'etag'),
  'Cache-Control': { description: '`no-cache`: revalidate with If-None-Match (304 while unchanged)', schema: { type: 'string' } },
  'Content-Security-Policy': { description: 'No inline script, nothing from other origins, no framing', schema: { type: 'string' } },
});

const consoleDoc =
  (description: string, content: Json, problems: OperationDoc['problems'], pathParameters?: OperationDoc['pathParameters']) =>
  (ctx: SchemaContext): OperationDoc => ({
    description,
    tag: 'api',
    parameters: [headerParameter(ctx, 'if-none-match')],
    ...(pathParameters ? { pathParameters } : {}),
    responses: {
      '200': { description: 'The file', headers: validators(ctx), content },
      '304': { description: 'Not Modified: your copy is current', headers: { ETag: header(ctx, 'etag') } },
    },
    problems,
  });

const file = { schema: { type: 'string' } };
const assetParameter = { asset: { type: 'string', pattern: '^[A-Za-z0-9._-]+$', description: 'A file of the console (or a page of it, which gets the shell)' } };

/** The web console's rows of the route table: its shell and its files, open to all (they hold no data). */
export function consoleRoutes(): Route<AppContext>[] {
  return documented<Route<AppContext>>(
    [
      { method: 'GET', path: '/_', operationId: 'getConsole', summary: 'The web console (HTML): browse and edit records, inspect webhooks and events, manage credentials', handler: serveShell, kind: 'meta' },
      { method: 'GET', path: '/_/:asset', operationId: 'getConsoleAsset', summary: 'A file of the web console (script, style), or the console itself for a page of it', handler: () => serveAsset(''), kind: 'meta' },
      { method: 'GET', path: '/_/views/:asset', operationId: 'getConsoleView', summary: 'A view module of the web console', handler: () => serveAsset('views/'), kind: 'meta' },
      { method: 'GET', path: '/_/vendor/:asset', operationId: 'getConsoleLibrary', summary: 'A file of a library the web console uses (the uPlot charts)', handler: serveVendor, kind: 'meta' },
    ],
    {
      getConsole: consoleDoc(
        'The web console: one HTML page that signs in with an API key or OAuth client credentials (kept in the tab\'s sessionStorage, sent as a bearer token; no cookies) and then uses this API as any client does.',
        { 'text/html': file },
        [],
      ),
      getConsoleAsset: consoleDoc(
        'A script or style sheet of the console; a name without an extension (a page of the console, or `/_/` itself) gets the HTML shell.',
        { 'text/javascript': file, 'text/css': file, 'text/html': file },
        ['not-found'],
        assetParameter,
      ),
      getConsoleView: consoleDoc('A view module of the console (an ES module).', { 'text/javascript': file }, ['not-found'], assetParameter),
      getConsoleLibrary: consoleDoc(
        'A file of a library the console uses, served from the installed package (no CDN): `uPlot.esm.js` and `uPlot.min.css` (the dashboard\'s charts). Any other name is 404.',
        { 'text/javascript': file, 'text/css': file },
        ['not-found'],
        assetParameter,
      ),
    },
  );
}
