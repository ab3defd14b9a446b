import type { ResourceDefinition } from '../../core/resource.js';
import type { Json } from './components.js';
import { header } from './headers.js';
import type { OperationDoc } from './operation-doc.js';
import type { SchemaContext } from './schemas.js';

/** A record operation's documentation; `doc` is another shape's (json-server's), which does not follow Prefer. */
type OperationBuilder = (r: ResourceDefinition, ctx: SchemaContext, doc?: never) => OperationDoc;

const APPLIED = '(return=(minimal|representation)|handling=(strict|lenient))';

/** The `Prefer` request header of a write; `patch` says its body is a patch, whose JSON Patch form is always strict. */
function preferParameter(ctx: SchemaContext, patch: boolean): { $ref: string } {
  const handling = patch
    ? '`handling=lenient`: members of a merge patch that are no field are dropped instead of a 422 (`handling=strict`, the default); a JSON Patch is always strict, its operations being instructions rather than members. '
    : '`handling=lenient`: members of the body that are no field are dropped instead of a 422 (`handling=strict`, the default). ';
  return ctx.components.ref('parameters', `prefer:${patch}`, patch ? 'PreferPatch' : 'Prefer', () => ({
    name: 'Prefer',
    in: 'header',
    required: false,
    description:
      'Preferences (RFC 7240), comma-separated, e.g. `return=minimal, handling=lenient`. `return=minimal`: no body, 201 with Location or 204, with the ETag and Last-Modified ' +
      'the record would have come with; `return=representation`: the record (the default). ' +
      handling +
      'Preferences the server does not know, and elements that do not parse, are ignored; two different values of one preference count as neither. ' +
      'Preference-Applied names what was applied.',
    schema: { type: 'string', example: 'return=minimal' },
  }));
}

/** The `Preference-Applied` response header (RFC 7240 §3). */
export function appliedHeader(ctx: SchemaContext): { $ref: string } {
  return ctx.components.ref('headers', 'preference-applied', 'PreferenceApplied', () => ({
    description: 'The preferences of the request\'s Prefer header that shaped this answer (RFC 7240 §3), comma-separated',
    required: false,
    schema: { type: 'string', pattern: `^${APPLIED}(, ${APPLIED})*$`, example: 'return=minimal' },
  }));
}

const MINIMAL = 'With `Prefer: return=minimal`, no body: Location, ETag and Last-Modified only.';

/** Adds Prefer to a write's documentation: the parameter, Preference-Applied on its answers, and the answers without a body. */
function withPrefer(op: OperationDoc, ctx: SchemaContext, patch: boolean, done: string): OperationDoc {
  const responses: Record<string, Json> = {};
  for (const [status, response] of Object.entries(op.responses)) {
    const headers = { ...(response.headers as Json), 'Preference-Applied': appliedHeader(ctx) };
    responses[status] = status === '201' ? { ...response, description: `${response.description}. ${MINIMAL}`, headers, 'x-body-optional': true } : { ...response, headers };
  }
  if (responses['200']) {
    const optional = { ETag: header(ctx, 'etag', false), 'Last-Modified': header(ctx, 'last-modified', false) };
    const minimal = `${done}, without a body as \`Prefer: return=minimal\` asked: the ETag and Last-Modified of the record`;
    const blind = responses['204'];
    responses['204'] = blind
      ? { ...blind, description: `${blind.description}; or ${minimal}`, headers: { ...optional, ...(blind.headers as Json) } }
      : { description: minimal, headers: { ...optional, Vary: header(ctx, 'vary'), 'Preference-Applied': appliedHeader(ctx) } };
  }
  return { ...op, parameters: [...(op.parameters ?? []), preferParameter(ctx, patch)], responses };
}

/**
 * The record operations with `Prefer` documented on the writes (create, replace, patch) of
 * Restwell's own records; another shape's documentation (`doc` given) is left as it is.
 */
export function preferring<T extends Record<string, (r: ResourceDefinition, ctx: SchemaContext, doc?: any) => OperationDoc>>(ops: T): T {
  const wrap = (kind: string, patch: boolean, done: string) => {
    const base = ops[kind] as OperationBuilder | undefined;
    if (!base) return {};
    const wrapped = (r: ResourceDefinition, ctx: SchemaContext, doc?: unknown) => (doc === undefined ? withPrefer(base(r, ctx), ctx, patch, done) : base(r, ctx, doc as never));
    return { [kind]: wrapped };
  };
  return { ...ops, ...wrap('create', false, 'Created'), ...wrap('replace', false, 'Replaced'), ...wrap('patch', true, 'Updated') };
}
