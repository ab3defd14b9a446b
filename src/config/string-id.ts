/**
 * The rule for ids of an `id: string` resource: 1–64 characters of `A-Z a-z 0-9 _ -`. Those are
 * URL-safe without percent-encoding (RFC 3986 unreserved, less `.` and `~`, so no id is `.` or
 * `..` or needs escaping in a path), and they cover what json-server makes: 0.17's nanoid(7) ids
 * (`"Jz5f9_a"`) and 1.x's four hex digits (`"a3f1"`). Ids are case-sensitive and kept exactly.
 */
export const STRING_ID_PATTERN = '^[A-Za-z0-9_-]{1,64}$';

/** {@link STRING_ID_PATTERN} as a RegExp. */
export const STRING_ID = new RegExp(STRING_ID_PATTERN);

/** The rule in words, for error messages and docs. */
export const STRING_ID_RULE = '1–64 characters of A-Z a-z 0-9 _ -';
