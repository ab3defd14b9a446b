import { escapeHtml, sameOriginPath } from './html.js';
import { layout } from './layout.js';

/** An RFC 9457 problem, as the HTML page shows it. */
export interface ProblemView {
  type?: unknown;
  title?: unknown;
  status?: unknown;
  detail?: unknown;
  instance?: unknown;
  errors?: unknown;
  [member: string]: unknown;
}

const SHOWN = new Set(['type', 'title', 'status', 'detail', 'instance', 'errors']);

/**
 * The readable HTML page of a problem, for a browser (a client that prefers text/html): its
 * status, title and detail, each field error, the other members, and a link to the page that
 * documents the problem type. 401 and 403 pages of a GET offer to load the page with the token.
 */
export function renderProblemPage(problem: ProblemView, base: string, method: string): string {
  const status = Number(problem.status);
  const title = String(problem.title ?? 'Error');
  const typePath = typeof problem.type === 'string' ? sameOriginPath(problem.type, base) : undefined;
  const errors = Array.isArray(problem.errors) ? problem.errors : [];
  const fieldErrors = errors.length
    ? `<h2>Field errors</h2><ul class="rw-field-errors">${errors
        .map((e: { pointer?: unknown; detail?: unknown }) => `<li><code>${escapeHtml(String(e?.pointer ?? '') || '(body)')}</code> ${escapeHtml(String(e?.detail ?? ''))}</li>`)
        .join('')}</ul>`
    : '';
  const extra = Object.entries(problem).filter(([k]) => !SHOWN.has(k));
  const meta = [
    ...(problem.instance !== undefined ? [['instance', String(problem.instance)]] : []),
    ...extra.map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
  ];
  // A page load cannot carry a bearer header; the script can load it again with the saved token.
  const retry = method === 'GET' ? `, then <button type="button" id="rw-retry">load this page with the token</button>` : ' and send the request again';
  const auth = status === 401 || status === 403 ? `<p>Paste a token in the box at the top of the page${retry}.</p>` : '';
  const main = `<section class="rw-problem"><p class="status">${Number.isFinite(status) ? status : ''}</p>
<h1>${escapeHtml(title)}</h1>
${problem.detail !== undefined ? `<p class="detail">${escapeHtml(String(problem.detail))}</p>` : ''}
${fieldErrors}
${meta.length ? `<dl class="rw-meta">${meta.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join('')}</dl>` : ''}
${auth}
<p>${typePath !== undefined ? `<a href="${escapeHtml(typePath)}" rel="help">What this problem means and how to fix it</a> · ` : ''}<a href="/">API root</a></p></section>`;
  return layout(`${Number.isFinite(status) ? `${status} ` : ''}${title}`, main);
}

/** The page a problem's `type` URL points at, for a browser: what the problem means and how to fix it. */
export function renderProblemTypePage(code: string, type: { status: number; title: string; description: string }): string {
  return layout(type.title, `<h1>${type.status} ${escapeHtml(type.title)}</h1><p>Problem type <code>${escapeHtml(code)}</code></p><p>${escapeHtml(type.description)}</p>`);
}
