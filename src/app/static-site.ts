import { createHash } from 'node:crypto';
import { constants, realpathSync, statSync, type Stats } from 'node:fs';
import { open, realpath, stat, type FileHandle } from 'node:fs/promises';
import { extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ConfigError } from '../config/load.js';
import { NotFoundError } from '../core/errors.js';
import { notModified } from '../http/conditional.js';
import { parseHttpDate } from '../http/http-date.js';
import { sendNotModified } from '../http/respond.js';
import { rangeOf } from './static-range.js';

/** Content types by extension; text is UTF-8. Anything else is application/octet-stream (nosniff keeps browsers from guessing). */
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.xml': 'application/xml',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.wasm': 'application/wasm',
  '.pdf': 'application/pdf',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.mp3': 'audio/mpeg',
  '.ogg': 'audio/ogg',
  '.wav': 'audio/wav',
};

/** Files up to this size are read whole and tagged by a digest of the bytes sent; larger ones are streamed. */
const SMALL = 1024 * 1024;
/** O_NOFOLLOW where the platform has it: the final name, already resolved, must not have become a link. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0);

/** What a URL path names in the folder: a file, a folder named without its `/`, or nothing (and why). */
export type Found = { kind: 'file'; path: string } | { kind: 'directory'; location: string } | { kind: 'none'; detail: string };

/**
 * A folder served beside the API (`server.static`). Only regular files strictly inside it are
 * served: a URL path is decoded one segment at a time, and refused when a segment is empty, `.`,
 * `..`, a dotfile, or holds a slash, backslash, NUL or control character once decoded; the file's
 * real path (symbolic links resolved) must still lie inside the folder's, below no dot-named folder.
 */
export class StaticSite {
  private readonly root: string;
  private readonly etags = new Map<string, string>();

  constructor(readonly dir: string) {
    try {
      this.root = realpathSync(resolve(dir));
      if (!statSync(this.root).isDirectory()) throw new Error('not a directory');
    } catch (err) {
      throw new ConfigError([`server.static: ${dir} is not a folder this process can read (${(err as Error).message})`], 'server.static');
    }
  }

  /** Resolves the path of a request URL (undecoded, without its query) to what it names. */
  async find(urlPath: string): Promise<Found> {
    const segments = segmentsOf(urlPath);
    if (typeof segments === 'string') return { kind: 'none', detail: `no file at ${urlPath}: ${segments}` };
    const real = await this.inside(join(this.root, ...segments));
    if (!real) return missing(urlPath);
    const info = await stat(real).catch(() => undefined);
    if (info?.isDirectory()) {
      if (!urlPath.endsWith('/')) return { kind: 'directory', location: `${urlPath}/` };
      // A folder is its index.html; never a listing of what it holds.
      const index = await this.inside(join(real, 'index.html'));
      const indexInfo = index === undefined ? undefined : await stat(index).catch(() => undefined);
      return index && indexInfo?.isFile() ? { kind: 'file', path: index } : { kind: 'none', detail: `no file at ${urlPath} (a folder without index.html; folders are never listed)` };
    }
    return info?.isFile() ? { kind: 'file', path: real } : missing(urlPath);
  }

  /** The real path of `path` when it exists inside the folder and below no dot-named entry, else undefined. */
  private async inside(path: string): Promise<string | undefined> {
    const real = await realpath(path).catch(() => undefined);
    if (real === undefined) return undefined;
    if (real === this.root) return real;
    const rel = relative(this.root, real);
    if (rel === '' || rel.startsWith('..') || isAbsolute(rel) || resolve(this.root, rel) !== real) return undefined;
    return rel.split(sep).some((part) => part.startsWith('.')) ? undefined : real;
  }

  /** Answers a GET or HEAD with what `urlPath` names: the file, a redirect to the folder's `/`, or 404. */
  async serve(request: FastifyRequest, reply: FastifyReply, urlPath: string): Promise<FastifyReply> {
    const found = await this.find(urlPath);
    if (found.kind === 'none') throw new NotFoundError(found.detail);
    if (found.kind === 'directory') {
      const query = request.url.indexOf('?');
      return reply.code(301).header('location', found.location + (query === -1 ? '' : request.url.slice(query))).send();
    }
    return this.send(request, reply, found.path);
  }

  /**
   * Sends a file found by `find`: strong ETag, Last-Modified, `Cache-Control: no-cache` (revalidate
   * each use; 304 while unchanged), one byte range when asked (`Accept-Ranges: bytes`).
   */
  async send(request: FastifyRequest, reply: FastifyReply, path: string): Promise<FastifyReply> {
    let handle: FileHandle | undefined = await open(path, OPEN_FLAGS).catch(() => undefined);
    if (!handle) throw new NotFoundError(`no file at ${request.url.split('?')[0]}`);
    try {
      const info = await handle.stat({ bigint: false });
      if (!info.isFile()) throw new NotFoundError(`no file at ${request.url.split('?')[0]}`);
      const small = info.size <= SMALL;
      const body = small ? await handle.readFile() : undefined;
      const etag = this.etagOf(info, body);
      reply
        .type(TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream')
        .header('etag', etag)
        .header('last-modified', info.mtime.toUTCString())
        .header('cache-control', 'no-cache')
        .header('accept-ranges', 'bytes');
      if (unchanged(request, etag, info)) return sendNotModified(request, reply);
      const size = body?.length ?? info.size;
      const range = rangeOf(request, reply, size, etag, info.mtime.toUTCString());
      if (body) return reply.send(range ? body.subarray(range.start, range.end + 1) : body);
      reply.header('content-length', String(range ? range.end - range.start + 1 : size));
      if (request.method === 'HEAD') return reply.send(Readable.from([]));
      const stream = handle.createReadStream(range ? { start: range.start, end: range.end } : {});
      handle = undefined; // the stream closes it
      return reply.send(stream);
    } finally {
      await handle?.close();
    }
  }

  /**
   * A strong ETag: for a small file, a digest of the very bytes sent; for a large one, a digest of
   * its identity and change times (it is streamed, not read first). Cached per file version.
   */
  private etagOf(info: Stats, body: Buffer | undefined): string {
    const key = `${info.dev}:${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}:${body ? body.length : 'stream'}`;
    let etag = this.etags.get(key);
    if (etag === undefined) {
      etag = `"${createHash('sha256').update(body ?? key).digest('base64url').slice(0, 27)}"`;
      if (this.etags.size >= 1000) this.etags.clear();
      this.etags.set(key, etag);
    }
    return etag;
  }
}

/** GET and HEAD preconditions (RFC 9110 §13.2.2): If-None-Match when sent, else If-Modified-Since (one-second resolution). */
function unchanged(request: FastifyRequest, etag: string, info: Stats): boolean {
  if (request.headers['if-none-match'] !== undefined) return notModified(request, etag);
  const since = parseHttpDate(request.headers['if-modified-since']);
  return since !== undefined && Math.floor(info.mtimeMs / 1000) <= since;
}

function missing(urlPath: string): Found {
  return { kind: 'none', detail: `no file at ${urlPath}` };
}

/**
 * The decoded segments of a URL path, or why it can name no file. Each segment is decoded on its
 * own, so `%2F` never becomes a separator and `%2e%2e` is refused as `..` is.
 */
export function segmentsOf(urlPath: string): string[] | string {
  if (!urlPath.startsWith('/')) return 'the path must begin with /';
  const raw = urlPath.slice(1).split('/');
  const segments: string[] = [];
  for (let i = 0; i < raw.length; i++) {
    const last = i === raw.length - 1;
    let part: string;
    try {
      part = decodeURIComponent(raw[i]);
    } catch {
      return 'its percent-encoding is not valid UTF-8';
    }
    if (part === '' && last) break; // a trailing slash: the folder's index.html
    if (part === '') return 'it has an empty segment (//)';
    if (part === '.' || part === '..') return 'paths with . or .. segments never name a file';
    if (part.startsWith('.')) return 'dotfiles are never served';
    if (/[/\\\x00-\x1f\x7f]/.test(part)) return 'a segment holds a slash, backslash, NUL or control character';
    segments.push(part);
  }
  return segments;
}

const sites = new Map<string, StaticSite>();

/** The site of a folder, made once per folder (the root page and the file route share its cache). */
export function staticSite(dir: string): StaticSite {
  let site = sites.get(dir);
  if (!site) sites.set(dir, (site = new StaticSite(dir)));
  return site;
}
