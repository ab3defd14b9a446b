/**
 * The size of a value's JSON text in UTF-8 bytes: what a record costs to store, to log as an event
 * and to send. Measured on the text itself (JSON.stringify is native and faster than any walk
 * written here), so escapes, keys and punctuation all count, as they do on disk and on the wire.
 */
export function jsonSize(value: unknown): number {
  const text = JSON.stringify(value);
  return text === undefined ? 0 : Buffer.byteLength(text, 'utf8');
}

/** A byte count for people: `1.5 MB`, `512 KB`, `300 bytes` (binary units, as config sizes are). */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 2) return `${round(bytes / 1024 ** 2)} MB`;
  if (bytes >= 1024) return `${round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

function round(n: number): string {
  return String(Math.round(n * 10) / 10);
}
