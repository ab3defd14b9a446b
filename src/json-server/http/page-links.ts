/**
 * json-server's `Link` header for `_page` (its getPage): none for an empty page or one that holds
 * everything; else `first` and `last`, `prev` past page 1, `next` while records follow. Each link is
 * the request's own URL with `_page` changed, relative (resolved against the request, RFC 8288), so
 * it names this server as the client reached it rather than as a Host header claims.
 */
export function pageLinks(url: string, page: number, limit: number, count: number, total: number): string | undefined {
  if (count === 0 || count === total) return undefined;
  const [path, search = ''] = url.split('?', 2) as [string, string?];
  const at = (n: number) => {
    const params = new URLSearchParams(search);
    params.set('_page', String(n));
    return `<${path}?${params}>`;
  };
  const links = [`${at(1)}; rel="first"`];
  if (page > 1) links.push(`${at(page - 1)}; rel="prev"`);
  if (page * limit < total) links.push(`${at(page + 1)}; rel="next"`);
  links.push(`${at(Math.ceil(total / limit))}; rel="last"`);
  return links.join(', ');
}
