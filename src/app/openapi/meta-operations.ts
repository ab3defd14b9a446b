import { PROBLEMS } from '../../http/problems.js';
import type { Json } from '../../http/openapi/components.js';
import { header, headerParameter } from '../../http/openapi/headers.js';
import type { OperationDoc } from '../../http/openapi/operation-doc.js';
import { representations } from '../../http/openapi/representations.js';
import { linksSchema, type SchemaContext } from '../../http/openapi/schemas.js';

const notModified = (ctx: SchemaContext) => ({ description: 'Not Modified: your copy is current', headers: { ETag: header(ctx, 'etag') } });
const html = (description: string) => ({ 'text/html': { schema: { type: 'string', description } } });

/** The API's own routes (root, problem types, this document, the docs page), by operationId. */
const META: Record<string, (ctx: SchemaContext) => Omit<OperationDoc, 'tag'>> = {
  getRoot: (ctx) => ({
    description: 'Where a client starts: a HAL document with a link to every collection, the event log, this OpenAPI document, the docs page and the problem types.',
    responses: {
      '200': {
        description: 'Links to everything this API serves',
        content: representations({
          type: 'object',
          required: ['_links'],
          properties: { name: { type: 'string' }, _links: linksSchema(ctx, ['self'], ['self'], 'One link per collection and per API document') },
        }),
      },
    },
    problems: [],
  }),
  getProblemType: () => ({
    description: 'The page a problem\'s `type` URL points at: what the problem means and how a client fixes it.',
    pathParameters: { code: { type: 'string', enum: Object.keys(PROBLEMS), description: 'A problem code of the catalog' } },
    responses: {
      '200': {
        description: 'The problem type',
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['code', 'status', 'title', 'description'],
              properties: { code: { type: 'string' }, status: { type: 'integer' }, title: { type: 'string' }, description: { type: 'string' } },
            },
          },
          ...html('The problem type as a page'),
        },
      },
    },
    problems: ['not-found'],
  }),
  getOpenApi: (ctx) => ({
    description: 'This document: every route, parameter, body, response and header of the API, generated from the configuration.',
    parameters: [headerParameter(ctx, 'if-none-match')],
    responses: {
      '200': { description: 'The OpenAPI 3.1 document', headers: { ETag: header(ctx, 'etag') }, content: { 'application/json': { schema: { type: 'object', description: 'An OpenAPI 3.1 document' } } } },
      '304': notModified(ctx),
    },
    problems: [],
  }),
  getDocs: (ctx) => ({
    description: 'This document rendered as one readable HTML page: every operation with its parameters, bodies and responses.',
    parameters: [headerParameter(ctx, 'if-none-match')],
    responses: { '200': { description: 'The documentation page', headers: { ETag: header(ctx, 'etag') }, content: html('The API documentation') }, '304': notModified(ctx) },
    problems: [],
  }),
};

/** The API's own routes, by operationId, under the `api` tag. */
export const META_OPERATIONS: Record<string, (ctx: SchemaContext) => OperationDoc> = Object.fromEntries(
  Object.entries(META).map(([id, doc]) => [id, (ctx: SchemaContext) => ({ ...doc(ctx), tag: 'api' })]),
);
