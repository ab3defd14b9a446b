import { BadRequestError } from '../../core/errors.js';
import type { ResourceDefinition } from '../../core/resource.js';
import { queryableField } from '../../core/system-fields.js';
import { parseFilterParam } from '../../resources/http/list-params.js';
import type { Filter } from '../../store/list-query.js';

/** Characters with a meaning in a regular expression: escaped (`\.`) they stand for themselves. */
const SYNTAX = '\\^$.*+?()[]{}|/';

/**
 * json-server's `field_like=…`, a case-insensitive regular expression, for the patterns that mean a
 * plain substring (`rust`, `c\+\+`) or a prefix (`^rust`): those are exactly `icontains` and
 * `istartsWith`, which run in the database in linear time. Any other pattern (classes, repetition,
 * alternation, `$`) is a 400 that says which patterns work, rather than a backtracking engine run on
 * a client's input or a different answer than json-server's.
 */
export function likeFilter(resource: ResourceDefinition, key: string, field: string, pattern: string, resources: ReadonlyMap<string, ResourceDefinition>): Filter {
  const def = queryableField(resource, field)!;
  if (def.type !== 'string' && def.type !== 'enum') throw bad(`${key}: _like matches text, and ${field} is ${def.type === 'integer' || def.type === 'number' ? 'a number' : `a ${def.type}`}; use ${field}=…, ${field}_gte=… or ${field}_lte=…`);
  const anchored = pattern.startsWith('^');
  const literal = literalOf(anchored ? pattern.slice(1) : pattern);
  if (literal === undefined) {
    throw bad(`${key}: "${pattern.slice(0, 60)}" is a regular expression Restwell does not run; _like takes text (a case-insensitive substring), ^text (a prefix), with \\ before any of ${SYNTAX} meant literally`);
  }
  return parseFilterParam(resource, `${field}[${anchored ? 'istartsWith' : 'icontains'}]`, literal, resources);
}

/** The text a pattern matches literally, or undefined when it uses regular-expression syntax. */
function literalOf(pattern: string): string | undefined {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      const next = pattern[i + 1];
      if (next === undefined || !SYNTAX.includes(next)) return undefined;
      out += next;
      i++;
    } else if (SYNTAX.includes(c)) {
      return undefined;
    } else {
      out += c;
    }
  }
  return out;
}

function bad(message: string): BadRequestError {
  return new BadRequestError('invalid-query', message);
}
