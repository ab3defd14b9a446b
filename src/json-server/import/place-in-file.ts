/**
 * Names the place a JSON Pointer into a json-server data file points at, as a person finds it:
 * `posts: row 3 (id 7): title`, with the row's place counting from 1 (as a person counts) and its id when it has one. What a problem
 * says of that place follows it (`… holds an unpaired UTF-16 surrogate …`).
 */
export function placeInFile(data: unknown, pointer: string): string {
  const path = pointer === '' ? [] : pointer.slice(1).split('/').map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
  if (!path.length) return 'the file';
  const [collection, row, ...rest] = path;
  if (row === undefined) return collection;
  const rows = isObject(data) ? data[collection] : undefined;
  if (!Array.isArray(rows) || !/^\d+$/.test(row)) return `${collection}: ${path.slice(1).join('/')}`;
  const record: unknown = rows[Number(row)];
  const id = isObject(record) && (typeof record.id === 'string' || typeof record.id === 'number') ? ` (id ${JSON.stringify(record.id)})` : '';
  return `${collection}: row ${Number(row) + 1}${id}${rest.length ? `: ${rest.join('/')}` : ''}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
