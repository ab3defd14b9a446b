/**
 * Domain errors: what went wrong in resource terms. The HTTP layer maps each to a problem type;
 * nothing below `http/` knows about status codes.
 */
export class DomainError extends Error {
  constructor(readonly code: string, message: string, readonly extra: Record<string, unknown> = {}) {
    super(message);
    this.name = new.target.name;
  }
}

/** One failed rule on one field of a request body. */
export interface FieldError {
  /** JSON Pointer to the field, e.g. `/name`. */
  pointer: string;
  detail: string;
}

/** The body is well-formed JSON but breaks the resource's rules. */
export class ValidationError extends DomainError {
  constructor(readonly errors: FieldError[], message = describe(errors), code: 'validation-failed' | 'record-too-large' = 'validation-failed') {
    super(code, message, { errors });
  }
}

/**
 * A write whose resulting record would be larger than the record limit (`server.recordLimit`).
 * A ValidationError, so every path that refuses an invalid record (a webhook's store action, an
 * import row) refuses this one the same way; over HTTP it is its own problem, a 413.
 */
export class RecordTooLargeError extends ValidationError {
  constructor(detail: string, pointer = '', extra: Record<string, unknown> = {}) {
    super([{ pointer, detail }], detail, 'record-too-large');
    Object.assign(this.extra, extra);
  }
}

/** No record (or no resource) at the requested place. */
export class NotFoundError extends DomainError {
  constructor(message: string) {
    super('not-found', message);
  }
}

/** A write would break a unique field or another record's reference. */
export class ConflictError extends DomainError {
  constructor(code: 'unique-violation' | 'reference-conflict' | 'patch-conflict' | 'id-taken', message: string, extra: Record<string, unknown> = {}) {
    super(code, message, extra);
  }
}

/** A conditional request's precondition (If-Match / If-None-Match) does not hold. */
export class PreconditionFailedError extends DomainError {
  constructor(message: string) {
    super('precondition-failed', message);
  }
}

/** The resource requires conditional writes and the request sent no precondition. */
export class PreconditionRequiredError extends DomainError {
  constructor(message: string) {
    super('precondition-required', message);
  }
}

/** A request that is syntactically unusable: bad id, bad patch document, bad query. */
export class BadRequestError extends DomainError {
  constructor(code: 'invalid-id' | 'invalid-patch' | 'invalid-query' | 'malformed-body', message: string, extra: Record<string, unknown> = {}) {
    super(code, message, extra);
  }
}

function describe(errors: FieldError[]): string {
  if (errors.length === 1) return `${errors[0].pointer.slice(1) || 'body'}: ${errors[0].detail}`;
  return `${errors.length} fields are invalid: ${errors.map((e) => e.pointer.slice(1) || 'body').join(', ')}`;
}
