import type { ProblemCode } from '../problems.js';
import type { Route } from '../../app/routes.js';
import type { Json } from './components.js';
import { CREDENTIAL_OPERATIONS } from '../../auth/http/credential-operations.js';
import { eventOperation } from '../../events/http/event-operations.js';
import { metaOperation } from '../../app/openapi/meta-operations.js';
import { OAUTH_OPERATIONS } from '../../auth/http/oauth-operations.js';
import { RECORD_OPERATIONS } from '../../resources/http/record-operations.js';
import type { SchemaContext } from './schemas.js';
import { WEBHOOK_OPERATIONS } from '../../webhooks/inbound/http/webhook-operations.js';

/** A route as the generator needs it: the table's row without its handler; `kind` may be one it does not know yet. */
export type DocRoute = Pick<Route, 'method' | 'path' | 'operationId' | 'summary' | 'resource' | 'access' | 'secretResponse' | 'rawBody'> & { kind: string };

/** Operations documented by their operationId: the routes of the auth and webhook modules. */
const BY_OPERATION_ID: Record<string, (ctx: SchemaContext) => OperationDoc> = { ...OAUTH_OPERATIONS, ...CREDENTIAL_OPERATIONS, ...WEBHOOK_OPERATIONS };

/** What a kind of route contributes to its operation; the document builder adds the rest. */
export interface OperationDoc {
  description: string;
  /** Query and header parameters (path parameters come from `pathParameters`). */
  parameters?: Json[];
  /** Schemas of path parameters other than a resource's `{id}`, by name. */
  pathParameters?: Record<string, Json>;
  requestBody?: Json;
  /** Success (and 304) responses, by status. */
  responses: Record<string, Json>;
  /** Catalog codes the operation can answer with; one problem response per status. */
  problems: ProblemCode[];
  /** Headers some problem statuses carry on this operation (beyond those every operation's have). */
  problemHeaders?: Partial<Record<number, Record<string, unknown>>>;
  /** Also document a `default` problem response, for operations whose errors are not listed. */
  anyProblem?: boolean;
  /** Tag for routes without a resource. */
  tag?: string;
}

/**
 * The documentation of a route, by its kind. Kinds the generator does not know yet still get a
 * valid operation (their summary, a JSON 2xx and the problem format), so adding a row to the
 * route table can never break `/openapi.json`; give the kind an entry here to describe it fully.
 */
export function operationDoc(route: DocRoute, ctx: SchemaContext): OperationDoc {
  const byId = Object.hasOwn(BY_OPERATION_ID, route.operationId) ? BY_OPERATION_ID[route.operationId] : undefined;
  if (byId) return byId(ctx);
  const record = RECORD_OPERATIONS[route.kind];
  if (record && route.resource) return record(route.resource, ctx);
  if (route.kind === 'meta') return metaOperation(route, ctx);
  if (route.kind.startsWith('event')) return eventOperation(route, ctx);
  return genericOperation(route);
}

function genericOperation(route: DocRoute): OperationDoc {
  const status = route.method === 'POST' ? '201' : route.method === 'DELETE' ? '204' : '200';
  return {
    description: `${route.summary}.`,
    responses: { [status]: status === '204' ? { description: 'Done' } : { description: 'Success', content: { 'application/json': { schema: {} } } } },
    problems: [],
    anyProblem: true,
  };
}
