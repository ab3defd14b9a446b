import type { ProblemCode } from '../problems.js';
import type { Json } from './components.js';

/** What a kind of route contributes to its operation; the document builder adds the rest. */
export interface OperationDoc {
  description: string;
  /** Query and header parameters (path parameters come from `pathParameters`). */
  parameters?: Json[];
  /** Schemas of path parameters, by name; `{id}` is the route's resource's unless named here. */
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
