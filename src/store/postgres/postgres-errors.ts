import pg from 'pg';
import { StoreFullError, StoreRefusedError, StoreUnavailableError } from '../errors.js';

/** Socket-level failures: the database host cannot be reached or dropped the connection. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * SQLSTATEs that mean "the server is going away or not accepting us now", not "your statement is
 * wrong": class 08 (connection exception, except 08P01 protocol violation, which is a bug), the
 * 57P0x shutdowns and 53300 too_many_connections.
 */
function isConnectionState(code: string): boolean {
  return (code.startsWith('08') && code !== '08P01') || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300';
}

/** The SQLSTATE of a server error, if `err` is one. */
export function sqlState(err: unknown): string | undefined {
  return err instanceof pg.DatabaseError ? err.code : undefined;
}

/**
 * True when a failure of a pg call means the database is unreachable. Errors the server sends are
 * so only for connection SQLSTATEs; socket errors always are; and the driver's own failures
 * ("Connection terminated unexpectedly", pool connect timeouts, a closed client) are plain
 * `Error`s without a code. Restwell's own errors are all subclasses, so they never match.
 */
export function isConnectionFailure(err: unknown): boolean {
  if (err instanceof pg.DatabaseError) return isConnectionState(err.code ?? '');
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') return NETWORK_CODES.has(code);
  return Object.getPrototypeOf(err) === Error.prototype;
}

/** Turns a connection failure into StoreUnavailableError (→ 503 + Retry-After); other errors pass through. */
export function unavailableOr(err: unknown): unknown {
  if (err instanceof StoreUnavailableError || !isConnectionFailure(err)) return err;
  return new StoreUnavailableError(`the database is unavailable (${describe(err)}); retry shortly`, 2);
}

/**
 * 53100 disk_full (the server could not extend a table, index, WAL or temporary file) becomes
 * StoreFullError (→ 507 + Retry-After); other errors pass through. The connection stays good.
 */
export function fullOr(err: unknown): unknown {
  return sqlState(err) === '53100' ? new StoreFullError(describe(err)) : err;
}

/** A short description of a pg failure for logs and problem details (no statement text). */
export function describe(err: unknown): string {
  const e = err as { code?: string; message?: string };
  return e.code ? `${e.code}: ${e.message}` : String(e.message ?? err);
}

/** PostgreSQL truncates identifiers to 63 bytes; constraint names in errors come back truncated. */
export function pgIdentifier(name: string): string {
  return Buffer.from(name).subarray(0, 63).toString();
}

/** SQLSTATEs with which a server refuses a new connection for good: retrying cannot help. */
const REFUSALS = new Set(['3D000', '28P01', '28000']);

/**
 * Why a new connection failed, as the error start-up and requests see: StoreRefusedError (with the
 * fix, in one line) when the server refused it for good (no such database, wrong password, unknown
 * role), else StoreUnavailableError (refused socket, timeout, server starting: worth retrying).
 */
export function connectFailure(err: Error, connectionString: string): StoreUnavailableError {
  const code = (err as { code?: string }).code;
  if (code && REFUSALS.has(code)) return new StoreRefusedError(refusal(code, err.message, connectionString));
  return new StoreUnavailableError(`the database cannot be reached (${code ?? ''}${code ? ': ' : ''}${err.message}); retry shortly`, 2);
}

function refusal(code: string, message: string, connectionString: string): string {
  const url = new URL(connectionString);
  const host = url.hostname || 'localhost';
  const port = url.port || '5432';
  const user = decodeURIComponent(url.username) || process.env.PGUSER || 'the current user';
  const database = decodeURIComponent(url.pathname.slice(1)) || user;
  const where = `PostgreSQL at ${host}:${port}`;
  if (code === '3D000') {
    const flags = [`-h ${host}`, `-p ${port}`, ...(url.username ? [`-U ${decodeURIComponent(url.username)}`] : [])].join(' ');
    return `database "${database}" does not exist on ${where}; create it with: createdb ${flags} ${database}`;
  }
  if (code === '28P01') return `${where} refused user "${user}": wrong password (${code}); check the password in the database URL`;
  return `${where} refused user "${user}": ${message} (${code}); check the user in the database URL, or create the role with: createuser -h ${host} -p ${port} ${user}`;
}
