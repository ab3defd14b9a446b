/** Items per page when a listing's `limit` is not given (resource lists and append-only logs alike). */
export const DEFAULT_LIMIT = 20;
/** The largest `limit` any listing accepts. */
export const MAX_LIMIT = 100;
