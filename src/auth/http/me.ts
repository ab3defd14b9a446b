import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Json } from '../../http/openapi/components.js';
import type { OperationDoc } from '../../http/openapi/operation-doc.js';
import type { SchemaContext } from '../../http/openapi/schemas.js';
import { callerRights } from '../caller-rights.js';
import type { AuthContext } from './auth-context.js';

/**
 * `GET /me`: what the caller's token is and may do, decided by the access rules the guards apply,
 * so a client (the console) offers only the actions that will succeed. The guard has already
 * refused a request without a valid token (401).
 */
export function meHandler(ctx: AuthContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    // The guard only lets authenticated requests through.
    const rights = callerRights(request.principal!, ctx.resources.values(), ctx.config);
    return reply.header('cache-control', 'private, no-store').type('application/json').send(JSON.stringify(rights));
  };
}

const flag = (description: string): Json => ({ type: 'boolean', description });

/** The documentation of `GET /me`. */
export function meOperation(ctx: SchemaContext): OperationDoc {
  const rights = { type: 'object', required: ['read', 'create', 'update', 'delete'], additionalProperties: false, properties: { read: flag('May list and read (under an `owner` rule: its own records)'), create: flag('May create'), update: flag('May change (PATCH; a PUT also needs `create`)'), delete: flag('May delete') } };
  const schema = ctx.components.schema('me', 'Me', () => ({
    type: 'object',
    description: 'The caller\'s token and what it may do, by the same access rules the server enforces.',
    required: ['kind', 'subject', 'scopes', 'admin', 'collections', 'events', 'webhooks', 'webhooksRead', 'webhooksOwn', 'inbox', 'metrics'],
    properties: {
      kind: { type: 'string', enum: ['api-key', 'oauth-client', 'jwt'], description: 'An API key, an access token of an OAuth client of this server, or a token of an external issuer' },
      subject: { type: 'string', description: 'Who requests made with the token act as (owner of the records it creates)' },
      clientId: { type: 'string', description: 'The OAuth client the token was issued to' },
      expiresAt: { type: 'string', format: 'date-time', description: 'When the token stops working, if it does' },
      scopes: { type: 'array', items: { type: 'string' } },
      admin: flag('Holds the admin scope `*`: may do everything'),
      collections: { type: 'object', description: 'Per collection: what the token may do there', additionalProperties: rights, propertyNames: { enum: [...ctx.resources.keys()] } },
      events: flag('May read the event log (`/events`)'),
      webhooks: flag('May manage outbound webhooks (`webhooks:write`)'),
      webhooksRead: flag('May read outbound webhooks and their deliveries (`webhooks:read`)'),
      webhooksOwn: flag('May create and manage outbound webhook endpoints of its own, which receive only the events it may read (`webhooks:own`)'),
      inbox: flag('May read the inboxes of the inbound webhook sources'),
      metrics: flag('May read `/metrics`'),
    },
  }));
  return {
    tag: 'api',
    description: 'What the caller\'s bearer token is (an API key, an OAuth client\'s access token, an external issuer\'s token) and what it may do: per collection read, create, update and delete, and the event log, webhooks and metrics. Decided by the same access rules the server enforces, so a client can offer only what will succeed. Any valid token may ask; without one: 401.',
    responses: { '200': { description: 'The token and its rights', headers: { 'Cache-Control': { description: '`private, no-store`', schema: { type: 'string' } } }, content: { 'application/json': { schema } } } },
    problems: [],
  };
}
