import { ValidationError, type FieldError } from '../../core/errors.js';
import { toPlain, type StoredRecord } from '../../core/record.js';

/**
 * References between the items of a batch: a JSON string that is exactly `$N.name` (N an earlier
 * item's 0-based index, `name` a member of the record that item wrote: `id`, `version`, or a
 * field) stands for that value, with its JSON type (`"$0.id"` becomes 7, not "7"). They may appear
 * anywhere in an item's body and as the id segment of its URL (`/characters/$0.id`). A string that
 * must stay a literal `$0.id` is written with one more `$` in front (`"$$0.id"`): a string of two
 * or more `$` then a digit loses its first `$`. Any other string is left as it is.
 */
const REFERENCE = /^\$(\d{1,5})\.([A-Za-z_][A-Za-z0-9_]*)$/;
const ESCAPED = /^\$(\$+\d)/;

/** What an earlier item left for references: its record (undefined for one that wrote none) and whether the caller may read it. */
export interface Referenced {
  record?: StoredRecord;
  readable: boolean;
}

/** The value `text` stands for, or `text` itself; `pointer` names where it is, for the error. */
export function resolveString(text: string, earlier: readonly Referenced[], index: number, pointer: string, errors: FieldError[]): unknown {
  if (text.charCodeAt(0) !== 36 /* $ */) return text;
  if (ESCAPED.test(text)) return text.slice(1);
  const m = REFERENCE.exec(text);
  if (!m) return text;
  const n = Number(m[1]);
  const name = m[2];
  if (n >= index) {
    errors.push({ pointer, detail: `${text} refers to item ${n}, which does not come before this one (item ${index}); an item may refer only to earlier items` });
    return text;
  }
  const { record, readable } = earlier[n];
  if (!record) {
    errors.push({ pointer, detail: `${text} refers to item ${n}, which wrote no record` });
    return text;
  }
  // The id is in the Location or URL anyway; anything else of a record the caller may not read would leak it.
  if (name !== 'id' && !readable) {
    errors.push({ pointer, detail: `${text} refers to a member of item ${n}'s record, which this request may not read; only $${n}.id may be used` });
    return text;
  }
  const plain = toPlain(record);
  if (!Object.hasOwn(plain, name) || plain[name] === undefined) {
    errors.push({ pointer, detail: `${text}: item ${n}'s record has no member "${name}"` });
    return text;
  }
  return plain[name];
}

/** `body` with every reference replaced (see REFERENCE); a reference that cannot be resolved is a 422 naming its place in the body. */
export function resolveReferences(body: unknown, earlier: readonly Referenced[], index: number): unknown {
  const errors: FieldError[] = [];
  const walk = (value: unknown, pointer: string): unknown => {
    if (typeof value === 'string') return resolveString(value, earlier, index, pointer, errors);
    if (Array.isArray(value)) return value.map((v, i) => walk(v, `${pointer}/${i}`));
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[k] = walk(v, `${pointer}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`);
      return out;
    }
    return value;
  };
  const resolved = walk(body, '');
  if (errors.length) throw new ValidationError(errors);
  return resolved;
}
