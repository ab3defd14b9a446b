import { createHash } from 'node:crypto';
import { BROWSE_SCRIPT } from './browse-script.js';

/** The stylesheet of the browsable pages and HTML problem pages; readable from 390 px wide up. */
export const BROWSE_STYLE = `
*{box-sizing:border-box}
body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1d2430;background:#fff}
main{max-width:64rem;margin:0 auto;padding:1rem}
header.rw-nav{background:#12365c;color:#fff;padding:.5rem 1rem;display:flex;flex-wrap:wrap;gap:.4rem 1rem;align-items:center}
header.rw-nav a{color:#fff;text-decoration:none;font-weight:600}header.rw-nav a:hover,header.rw-nav a:focus{text-decoration:underline}
#rw-token{margin-left:auto;display:flex;flex-wrap:wrap;gap:.3rem;align-items:center;font-size:13px}
#rw-token input{width:13rem;max-width:60vw}
#rw-token [data-token-state]{opacity:.85}
h1{font-size:1.35rem;overflow-wrap:anywhere}h2{font-size:1.1rem;margin-top:2rem}
pre{background:#f5f7fa;border:1px solid #dde3ea;border-radius:6px;padding:1rem;overflow:auto;font-size:13px}
pre .k{color:#7a3e9d}pre .s{color:#1a6b35}pre .v{color:#a0430a}
a{color:#0b5cad}
nav.rw-pager{display:flex;gap:1rem;margin:.8rem 0}nav.rw-pager a{font-weight:600}
.rw-links td,.rw-links th{padding:.2rem .6rem .2rem 0;text-align:left;vertical-align:top;overflow-wrap:anywhere}
.rw-field{display:grid;grid-template-columns:minmax(8rem,14rem) 1fr;gap:.2rem 1rem;margin:.5rem 0;align-items:start}
.rw-field .rw-error,.rw-field .help{grid-column:2}
.rw-ref{display:flex;gap:.6rem;align-items:center}.rw-ref input{flex:1}
@media (max-width:600px){.rw-field{grid-template-columns:1fr}.rw-field .rw-error,.rw-field .help{grid-column:1}}
input,select,textarea,button{font:inherit;padding:.3rem .45rem;border:1px solid #9aa7b5;border-radius:4px;max-width:100%}
input,select,textarea{background:#fff;color:inherit}textarea{width:100%;font-family:ui-monospace,monospace;font-size:13px}
button{background:#0b5cad;color:#fff;border-color:#0b5cad;cursor:pointer}button.danger{background:#b3261e;border-color:#b3261e}
button:disabled{opacity:.6}:focus-visible{outline:3px solid #f2a900;outline-offset:1px}
[aria-invalid=true]{border-color:#b3261e;background:#fff5f5}
.rw-error{color:#b3261e;font-weight:600}
.rw-status:empty{display:none}.rw-status{border-radius:6px;padding:.4rem .8rem;margin:.5rem 0}
.rw-status.error{background:#fdecea;border:1px solid #e0a39e}.rw-status.ok{background:#e8f5e9;border:1px solid #9cc9a0}.rw-status.pending{background:#f5f7fa;border:1px solid #dde3ea}
.rw-forms,.rw-query{border:1px solid #dde3ea;border-radius:8px;padding:.2rem 1rem 1rem;margin:1rem 0}
.rw-query summary{cursor:pointer;font-weight:600;padding:.6rem 0}
.rw-filter{display:flex;flex-wrap:wrap;gap:.3rem;align-items:center}
.hint{color:#536170;font-size:13px}
.rw-problem{border-left:6px solid #b3261e;padding:.2rem 1rem;background:#fdf6f5}
.rw-problem .status{font-size:2rem;font-weight:700;color:#b3261e}
dl.rw-meta{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem}dl.rw-meta dt{font-weight:600}dl.rw-meta dd{margin:0;overflow-wrap:anywhere}
`;

const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/**
 * The Content-Security-Policy of every HTML page the server renders: nothing loads from elsewhere;
 * the one inline script and stylesheet run because their hashes are listed (no 'unsafe-inline');
 * fetch may reach this origin only; forms submit to it only; no plugins, no framing.
 */
export const HTML_CSP = [
  "default-src 'none'",
  `script-src ${hash(BROWSE_SCRIPT)}`,
  `style-src ${hash(BROWSE_STYLE)}`,
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');
