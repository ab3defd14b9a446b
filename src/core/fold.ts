/**
 * The case folding of Restwell's case-insensitive matching (`icontains`, `istartsWith`, `q=`):
 * Unicode lower-case mapping (ICU's root locale, what JavaScript's toLowerCase does), with the
 * Greek final sigma folded like any sigma so a word matches wherever it ends. Every engine folds
 * with this exact rule: SQLite calls this function (registered as `rw_fold`), PostgreSQL has an
 * `rw_fold` SQL function doing the same with `lower(… COLLATE "und-x-icu")`.
 */
export function fold(text: string): string {
  return text.toLowerCase().replaceAll('ς', 'σ');
}

/** The name of the folding function in every engine's SQL. */
export const FOLD_FUNCTION = 'rw_fold';
