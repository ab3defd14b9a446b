import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { RestwellServer } from '../../src/app/server.js';
import { GADGETS_DEMO, bearer, engines, testServer } from '../../src/test-support/test-server.js';
import { renderJson } from '../../src/ui/json-view.js';

/** What Chromium and Firefox send for a page load. */
const BROWSER = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8' };
const json = { 'content-type': 'application/json' };


/** The `<input|select|textarea …>` tag of a form field, by its id. */
function control(html: string, id: string): string {
  const m = new RegExp(`<(input|select|textarea)[^>]*\\bid="${id}"[^>]*>`).exec(html);
  assert.ok(m, `a control with id ${id}`);
  return m[0];
}

/** The text of an attribute as the browser reads it. */
const unescape = (s: string) => s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

for (const engine of engines) {
  describe(`browsable HTML (${engine.name})`, () => {
    let server: RestwellServer;
    let auth: Record<string, string>;
    const inject = (opts: Record<string, unknown>) => server.app.inject(opts as any);
    before(async () => {
      server = await testServer(engine, GADGETS_DEMO);
      auth = await bearer(server, ['gadgets:write']);
      for (const name of ['Homer', 'Marge', 'Bart', '<script>alert(1)</script>', '"><img src=x onerror=alert(1)>']) {
        assert.equal((await inject({ method: 'POST', url: '/characters', headers: json, payload: { name } })).statusCode, 201);
      }
    });
    after(() => server.close());

    test('paging links are clickable, query strings and all, and lead to the next page', async () => {
      const first = await inject({ url: '/characters?limit=2&sort=name', headers: BROWSER });
      assert.equal(first.statusCode, 200);
      assert.match(String(first.headers['content-type']), /^text\/html/);
      const next = /<a href="([^"]+)" rel="next">/.exec(first.body);
      assert.ok(next, 'a next link in the pager');
      assert.match(next[1], /^\/characters\?limit=2&amp;sort=name&amp;cursor=/, 'the & of the query is escaped, the link kept whole');
      assert.match(first.body, /<a href="\/characters\?limit=2&amp;sort=name" rel="first">/);
      // The same links inside the JSON are links too (the old regex stopped at the first &amp;).
      assert.ok(first.body.includes(`<a href="${next[1]}">&quot;/characters?limit=2&amp;sort=name&amp;cursor=`), 'the next href in the JSON is a link');
      const second = await inject({ url: unescape(next[1]), headers: BROWSER });
      assert.equal(second.statusCode, 200);
      assert.match(second.body, /rel="prev"/, 'the second page links back');
    });

    test('the root links every same-origin href; a templated one becomes a form to fill in', async () => {
      const root = await inject({ url: '/', headers: BROWSER });
      for (const href of ['/characters', '/gadgets', '/events', '/openapi.json', '/docs']) assert.ok(root.body.includes(`<a href="${href}">`), href);
      assert.match(root.body, /<form class="rw-template" data-template="\/problems\/\{code\}">[\s\S]*?<input name="code"/);
      assert.match(root.body, /<header class="rw-nav"><a href="\/">API root<\/a><a href="\/docs">Docs<\/a><a href="\/openapi.json">OpenAPI<\/a><a href="\/_\/">Web console<\/a>/);
      assert.match(root.body, /<form id="rw-token"[\s\S]*?type="password"/, 'the token box');
    });

    test('only same-origin hrefs become links: absolute ones on this server do, others and scripts never', () => {
      const html = renderJson(
        {
          _links: {
            self: { href: 'http://api.test/characters?a=1&b=2' },
            other: { href: 'https://evil.test/x' },
            script: { href: 'javascript:alert(1)' },
            proto: { href: '//evil.test/x' },
            page: { href: '/characters{?cursor,limit}', templated: true },
            item: { href: '/characters/{id}', templated: true },
          },
          note: { href: '/in-data-too' },
        },
        'http://api.test',
      );
      assert.ok(html.includes('<a href="/characters?a=1&amp;b=2">&quot;http://api.test/characters?a=1&amp;b=2&quot;</a>'));
      assert.ok(html.includes('<a href="/characters">'), 'optional query expressions are dropped');
      assert.ok(html.includes('<a href="/in-data-too">'));
      assert.equal(html.match(/<a /g)?.length, 3);
      assert.ok(!html.includes('href="javascript'), 'never a script URL');
    });

    test('a collection page has a POST form with an input of the right type per field, required marked', async () => {
      const page = await inject({ url: '/gadgets', headers: BROWSER });
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /<form class="rw-write" id="rw-create" data-action="\/gadgets">/);
      assert.match(page.body, /<button type="submit" value="POST">/);
      const title = control(page.body, 'f-title');
      assert.match(title, /type="text"/);
      assert.match(title, / required/);
      assert.match(title, /maxlength="80"/);
      assert.match(page.body, /<label for="f-title">title <abbr title="required">\*<\/abbr>/);
      assert.doesNotMatch(control(page.body, 'f-code'), / required|pattern=/, 'optional; the pattern is the server\'s to check');
      assert.match(control(page.body, 'f-count'), /type="number"[\s\S]*step="1" min="0" max="99"/);
      assert.match(control(page.body, 'f-price'), /type="number"[\s\S]*step="any"/);
      assert.match(control(page.body, 'f-active'), /^<select[^>]*data-type="boolean"/);
      assert.match(control(page.body, 'f-releasedAt'), /type="datetime-local"/);
      assert.match(control(page.body, 'f-color'), /^<select[^>]*data-type="enum"/);
      assert.ok(page.body.includes('<option value="&lt;b&gt;blue&lt;/b&gt;">&lt;b&gt;blue&lt;/b&gt;</option>'), 'enum values escaped');
      assert.match(control(page.body, 'f-maker'), /type="number"[\s\S]*data-id-type="integer"/);
      assert.match(page.body, /<a href="\/characters">browse characters<\/a>/);
      assert.match(control(page.body, 'f-meta'), /^<textarea[^>]*data-type="json"/);
      assert.match(page.body, /<form method="get" action="\/gadgets" class="rw-query-form">/, 'the filter form');
      const searched = await inject({ method: 'GET', url: '/gadgets?q=flux&expand=maker&title[icontains]=f', headers: BROWSER });
      assert.equal(searched.statusCode, 200, searched.body);
      assert.equal((searched.body.match(/class="rw-filter"/g) ?? []).length, 2, 'q and expand are no filters: one row for title[icontains], one empty');
      assert.match(searched.body, /<option selected>icontains<\/option>/, 'every operator the API takes is offered');
    });

    test('a record page has a form prefilled for PUT and PATCH, If-Match with the JSON ETag, and a DELETE button', async () => {
      const created = await inject({
        method: 'POST',
        url: '/gadgets',
        headers: { ...json, ...auth },
        payload: { title: 'Flux "capacitor" <1>', count: 3, price: 9.5, active: true, releasedAt: '2024-05-01T12:30:15Z', color: 'green', maker: 1, meta: { a: [1, 2] } },
      });
      assert.equal(created.statusCode, 201, created.body);
      const url = String(created.headers.location);
      const page = await inject({ url, headers: BROWSER });
      assert.equal(page.statusCode, 200);
      assert.match(page.body, new RegExp(`<form class="rw-write" id="rw-edit" data-action="${url}" data-etag="([^"]+)"`));
      const etag = unescape(/id="rw-edit" data-action="[^"]+" data-etag="([^"]+)"/.exec(page.body)![1]);
      assert.equal(etag, created.headers.etag, 'the ETag of the JSON representation the script asks for');
      assert.notEqual(page.headers.etag, created.headers.etag, 'the page itself has its own ETag');
      assert.match(page.body, /<button type="submit" value="PUT">/);
      assert.match(page.body, /<button type="submit" value="PATCH">/);
      assert.match(page.body, /<form class="rw-delete" data-action="[^"]+" data-etag="[^"]+" data-collection="\/gadgets">[\s\S]*?value="DELETE"/);
      assert.match(control(page.body, 'f-title'), /value="Flux &quot;capacitor&quot; &lt;1&gt;"/);
      assert.match(control(page.body, 'f-count'), /value="3"/);
      assert.match(control(page.body, 'f-releasedAt'), /value="2024-05-01T12:30:15"/);
      assert.match(page.body, /<option value="true" selected>/);
      assert.match(page.body, /<option value="green" selected>/);
      const original = JSON.parse(unescape(/data-original="([^"]+)"/.exec(page.body)![1]));
      assert.deepEqual(original.meta, { a: [1, 2] });
      assert.equal(original.code, null);
    });

    test('hostile data is escaped everywhere: the only script on a page is its own', async () => {
      for (const url of ['/characters?limit=100', '/characters/4', '/characters/5', '/characters?name=%3Cscript%3E']) {
        const page = await inject({ url, headers: BROWSER });
        assert.equal(page.statusCode, 200, url);
        assert.equal(page.body.match(/<script/gi)?.length, 1, `${url}: one script element`);
        assert.ok(!page.body.includes('<img'), `${url}: no injected element`);
        assert.ok(!page.body.includes('"><img'), `${url}: no attribute broken out of`);
      }
      const record = await inject({ url: '/characters/5', headers: BROWSER });
      assert.ok(record.body.includes('value="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"'), 'the prefilled value is escaped');
      assert.ok(record.body.includes('&quot;\\&quot;&gt;&lt;img src=x onerror=alert(1)&gt;&quot;'), 'the JSON value is escaped');
      const problem = await inject({ url: '/characters?%3Cimg%20src%3Dx%3E=1', headers: BROWSER });
      assert.equal(problem.statusCode, 400);
      assert.match(String(problem.headers['content-type']), /^text\/html/);
      assert.ok(!problem.body.includes('<img'), 'a problem detail naming a hostile parameter is escaped');
    });

    test('every HTML page has a strict CSP that allows exactly its own inline script and style', async () => {
      for (const [url, status] of [['/', 200], ['/gadgets', 200], ['/nope', 404], ['/problems/not-found', 200]] as const) {
        const page = await inject({ url, headers: BROWSER });
        assert.equal(page.statusCode, status, url);
        const csp = String(page.headers['content-security-policy']);
        assert.match(csp, /default-src 'none'/, url);
        assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/, url);
        assert.equal(page.headers['x-content-type-options'], 'nosniff');
        const script = /<script>([\s\S]*?)<\/script>/.exec(page.body)![1];
        const style = /<style>([\s\S]*?)<\/style>/.exec(page.body)![1];
        const sha = (s: string) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`;
        assert.ok(csp.includes(`script-src ${sha(script)}`), `${url}: the script's hash`);
        assert.ok(csp.includes(`style-src ${sha(style)}`), `${url}: the style's hash`);
      }
    });

    test('a browser gets problems as HTML pages with the same status and headers; API clients get problem+json', async () => {
      const cases = [
        { name: '404', req: { url: '/nope' }, status: 404, header: undefined },
        { name: '405', req: { method: 'POST', url: '/characters/1', headers: json, payload: {} }, status: 405, header: 'allow' },
        { name: '401', req: { method: 'POST', url: '/gadgets', headers: json, payload: { title: 'x' } }, status: 401, header: 'www-authenticate' },
        { name: '422', req: { method: 'POST', url: '/gadgets', headers: { ...json, ...auth }, payload: { title: 'x', code: 'lower', count: 500 } }, status: 422, header: undefined },
        { name: '400 malformed JSON', req: { method: 'POST', url: '/characters', headers: json, payload: '{"name":' }, status: 400, header: undefined },
        { name: '413', req: { method: 'POST', url: '/characters', headers: json, payload: JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }) }, status: 413, header: undefined },
      ];
      for (const c of cases) {
        const req = c.req as Record<string, any>;
        const page = await inject({ ...req, headers: { ...req.headers, ...BROWSER } });
        assert.equal(page.statusCode, c.status, `${c.name}: ${page.body.slice(0, 200)}`);
        assert.match(String(page.headers['content-type']), /^text\/html; charset=utf-8/, c.name);
        assert.match(String(page.headers.vary), /Accept/, c.name);
        assert.ok(page.body.includes(`<p class="status">${c.status}</p>`), c.name);
        assert.match(page.body, /<a href="\/problems\/[a-z-]+" rel="help">/, `${c.name}: a link to the problem type`);
        for (const accept of ['application/json', '*/*', undefined]) {
          const headers = { ...req.headers, ...(accept ? { accept } : {}) };
          const api = await inject({ ...req, headers });
          assert.equal(api.statusCode, c.status, `${c.name} (${accept})`);
          assert.equal(api.headers['content-type'], 'application/problem+json; charset=utf-8', `${c.name} (${accept})`);
          assert.equal(api.json().status, c.status);
          if (c.header) assert.equal(page.headers[c.header], api.headers[c.header], `${c.name}: ${c.header} is the same`);
        }
        if (c.header) assert.ok(page.headers[c.header], `${c.name}: ${c.header} present`);
        if (c.status === 422) {
          assert.match(page.body, /<h2>Field errors<\/h2>/);
          assert.match(page.body, /<code>\/code<\/code> must match/);
          assert.match(page.body, /<code>\/count<\/code>/);
        }
        if (c.status === 401) assert.match(page.body, /Paste a token in the box at the top of the page and send the request again/);
      }
    });

    test('HTML pages keep ETag, 304 and HEAD right', async () => {
      const page = await inject({ url: '/characters/1', headers: BROWSER });
      const etag = String(page.headers.etag);
      assert.match(etag, /\.html"$/);
      const again = await inject({ url: '/characters/1', headers: { ...BROWSER, 'if-none-match': etag } });
      assert.equal(again.statusCode, 304);
      assert.equal(again.body, '');
      assert.equal(again.headers.etag, etag);
      const head = await inject({ method: 'HEAD', url: '/characters/1', headers: BROWSER });
      assert.equal(head.statusCode, 200);
      assert.equal(head.body, '');
      for (const name of ['content-type', 'content-length', 'etag', 'content-security-policy', 'vary']) assert.equal(head.headers[name], page.headers[name], name);
      const missing = await inject({ method: 'HEAD', url: '/characters/999', headers: BROWSER });
      const missingGet = await inject({ url: '/characters/999', headers: BROWSER });
      assert.equal(missing.statusCode, 404);
      assert.equal(missing.headers['content-length'], missingGet.headers['content-length'], 'HEAD of an HTML problem has GET\'s length');
    });
  });
}
