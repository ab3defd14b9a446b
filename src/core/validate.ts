import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { createAjv } from '../config/ajv.js';
import { RecordTooLargeError, ValidationError, type FieldError } from './errors.js';
import { bodySchema } from './field-schema.js';
import { describeJsonHazard, findJsonHazard } from './json-hazards.js';
import { formatBytes, jsonSize } from './json-size.js';
import { SYSTEM_FIELDS, type StoredRecord } from './record.js';
import type { ResourceDefinition } from './resource.js';

const HAL_MEMBERS = ['_links', '_embedded'];

/** Turns request bodies into complete, valid field data for one resource. */
export class RecordValidator {
  private readonly check: ValidateFunction;

  /**
   * `maxJsonDepth` bounds the nesting of a whole representation (the record object is level 1);
   * `recordLimit` the size of a record's field data as JSON, in bytes (`server.recordLimit`).
   */
  constructor(private readonly resource: ResourceDefinition, all: ResourceDefinition[], private readonly maxJsonDepth: number, readonly recordLimit: number) {
    this.check = createAjv().compile(bodySchema(resource, all));
  }

  /**
   * Validates a full representation (POST, PUT, or the result of a PATCH) and returns the
   * record's complete field data: defaults filled in, absent optional fields null, datetimes
   * normalised to UTC. Server-managed members are accepted only when they repeat the current
   * values (so a GET body can be sent back with PUT), and never from a `blind` writer, one that
   * may not read the record (apart from the id, which its URL names); HAL members are ignored. A result nested
   * deeper than the limit, or holding what the body parser refuses, is refused here too: whatever
   * is stored can always be read, sent back and patched again (a patch could build it otherwise).
   * A record larger than `recordLimit` is a RecordTooLargeError: what a write produces is bounded
   * like its body is, whichever way it was built (a patch, a webhook's mapping, an import row).
   */
  prepare(body: unknown, current?: StoredRecord, pathId?: string | number, blind = false): Record<string, unknown> {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw new ValidationError([{ pointer: '', detail: `must be a JSON object with the fields of ${this.resource.name}` }]);
    }
    const input: Record<string, unknown> = { ...(body as Record<string, unknown>) };
    const errors: FieldError[] = [];
    for (const key of HAL_MEMBERS) delete input[key];
    const hazard = findJsonHazard(input, this.maxJsonDepth);
    if (hazard) throw new ValidationError([{ pointer: hazard.pointer, detail: describeJsonHazard(hazard, this.maxJsonDepth) }]);
    for (const key of SYSTEM_FIELDS) {
      if (!(key in input)) continue;
      const value = input[key];
      delete input[key];
      // A blind writer (one that may not read the record) is never told, nor lets guess, the stored values.
      const expected = key === 'id' ? (current?.id ?? pathId) : blind ? undefined : current?.[key];
      if (expected === undefined || value !== expected) {
        errors.push({ pointer: `/${key}`, detail: `is read-only: the server sets ${key}${expected === undefined ? '' : ` (currently ${JSON.stringify(expected)})`}` });
      }
    }
    if (!this.check(input)) errors.push(...(this.check.errors ?? []).map((e) => this.describe(e)));
    else errors.push(...this.portable(input));
    if (errors.length) throw new ValidationError(errors);
    const data = this.complete(input);
    const size = jsonSize(data);
    if (size > this.recordLimit) {
      // The size counts stored members too: a blind writer learns only that the limit was crossed.
      if (blind) throw blindRecordTooLarge(this.resource.name, this.recordLimit);
      throw new RecordTooLargeError(recordTooLarge(this.resource.name, size, this.recordLimit), '', { size, limit: this.recordLimit });
    }
    return data;
  }

  /**
   * A write body without the members it would be refused for not knowing (`handling=lenient`,
   * RFC 7240 §4.4): members that are neither a field of the resource, nor a server-managed member
   * (whose values `prepare` still checks), nor a HAL member (which `prepare` ignores). Only the top
   * level: a field's own value is the field's, validated as it is. Anything but an object is
   * returned as it is, for `prepare` to refuse.
   */
  withoutUnknownMembers(body: unknown): unknown {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
    const known = new Set<string>([...this.resource.fields.map((f) => f.name), ...SYSTEM_FIELDS, ...HAL_MEMBERS]);
    return Object.fromEntries(Object.entries(body).filter(([key]) => known.has(key)));
  }

  /**
   * The most a JSON Patch may make the plain representation of `current` (what PATCH patches):
   * the record limit, plus the server-managed members that representation adds to the field data.
   */
  patchLimit(current: StoredRecord): number {
    return this.recordLimit + jsonSize({ id: current.id, version: current.version, createdAt: current.createdAt, updatedAt: current.updatedAt });
  }

  private complete(input: Record<string, unknown>): Record<string, unknown> {
    const data: Record<string, unknown> = {};
    for (const f of this.resource.fields) {
      let v = input[f.name];
      if (v === undefined) v = f.default !== undefined ? structuredClone(f.default) : null;
      if (f.type === 'datetime' && typeof v === 'string') v = new Date(v).toISOString();
      data[f.name] = v;
    }
    return data;
  }

  /**
   * Values every engine can store exactly: no NUL character in text (PostgreSQL refuses it),
   * integers within ±2^53 (what JSON numbers hold exactly), and datetimes that are instants with
   * a four-digit UTC year (stored as ISO text, which sorts only then), so both engines answer alike.
   */
  private portable(input: Record<string, unknown>): FieldError[] {
    const errors: FieldError[] = [];
    for (const f of this.resource.fields) {
      const v = input[f.name];
      if (typeof v === 'string' && v.includes('\u0000')) errors.push({ pointer: `/${f.name}`, detail: 'must not contain the NUL character (\\u0000)' });
      if ((f.type === 'integer' || f.type === 'reference') && typeof v === 'number' && !Number.isSafeInteger(v)) {
        errors.push({ pointer: `/${f.name}`, detail: `must be between ${Number.MIN_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}` });
      }
      if (f.type === 'datetime' && typeof v === 'string') {
        const detail = unstorableDatetime(v);
        if (detail) errors.push({ pointer: `/${f.name}`, detail });
      }
    }
    return errors;
  }

  private describe(e: ErrorObject): FieldError {
    const p = e.params as Record<string, any>;
    switch (e.keyword) {
      case 'additionalProperties':
        return {
          pointer: `/${p.additionalProperty}`,
          detail: `is not a field of ${this.resource.name} (fields: ${this.resource.fields.map((f) => f.name).join(', ')})`,
        };
      case 'required':
        return { pointer: `/${p.missingProperty}`, detail: 'is required' };
      case 'type':
        return { pointer: e.instancePath, detail: `must be ${[p.type].flat().filter((t: string) => t !== 'null').join(' or ')}` };
      case 'maxLength':
        return { pointer: e.instancePath, detail: `must be at most ${p.limit} characters long` };
      case 'minLength':
        return { pointer: e.instancePath, detail: `must be at least ${p.limit} characters long` };
      case 'pattern':
        return { pointer: e.instancePath, detail: `must match the pattern ${p.pattern}` };
      case 'format':
        return { pointer: e.instancePath, detail: p.format === 'date-time' ? 'must be an RFC 3339 date-time, e.g. 2026-01-31T12:00:00Z' : `must be a valid ${p.format}` };
      case 'enum':
        return { pointer: e.instancePath, detail: `must be one of: ${p.allowedValues.filter((v: unknown) => v !== null).join(', ')}` };
      default:
        return { pointer: e.instancePath, detail: e.message ?? 'is invalid' };
    }
  }
}

/**
 * A record over the limit, told to a writer that may not read it: without the size, which would
 * tell how large the stored members it cannot read are.
 */
export function blindRecordTooLarge(resource: string, limit: number, pointer = ''): RecordTooLargeError {
  return new RecordTooLargeError(`the ${resource} record would be more than the ${formatBytes(limit)} (${limit} bytes) a record may be (server.recordLimit)`, pointer, { limit });
}

/** The detail of a record over the limit. */
function recordTooLarge(resource: string, size: number, limit: number): string {
  return `the ${resource} record would be ${formatBytes(size)} (${size} bytes) as JSON, more than the ${formatBytes(limit)} (${limit} bytes) a record may be (server.recordLimit)`;
}

/**
 * Why an RFC 3339 date-time (already format-checked) cannot be stored, if it cannot. A leap second
 * (`23:59:60`) is valid RFC 3339 but no instant of POSIX time, which every engine and JavaScript use.
 */
function unstorableDatetime(text: string): string | undefined {
  const t = Date.parse(text);
  if (Number.isNaN(t)) return /:60(\.\d+)?([Zz]|[+-]\d\d:\d\d)$/.test(text) ? 'is a leap second (:60), which cannot be stored; send :59.999 or the next second instead' : 'must be an RFC 3339 date-time, e.g. 2026-01-31T12:00:00Z';
  const year = new Date(t).getUTCFullYear();
  if (year < 0 || year > 9999) return 'must fall between 0000-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z in UTC';
  return undefined;
}
