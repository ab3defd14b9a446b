import type { AuthContext } from '../../auth/http/auth-context.js';
import { documented, type Route } from '../../http/route.js';
import { EVENT_OPERATIONS } from './event-operations.js';
import { listEvents, readEvent } from './events.js';
import { streamEvents } from './stream-events.js';

/** The event log's rows: every change to every record, readable with the `events:read` scope. */
export function eventRoutes(): Route<AuthContext>[] {
  return documented<Route<AuthContext>>(
    [
      { method: 'GET', path: '/events', operationId: 'listEvents', summary: 'The event log: every change, oldest first or newest first (type, resource and recordId filters)', handler: listEvents, kind: 'log', access: ['events:read'] },
      { method: 'GET', path: '/events/stream', operationId: 'streamEvents', summary: 'The event log, live, as Server-Sent Events (type, resource, recordId and field filters)', handler: streamEvents, kind: 'log', access: ['events:read'] },
      { method: 'GET', path: '/events/:id', operationId: 'getEvent', summary: 'Read one event', handler: readEvent, kind: 'log', access: ['events:read'] },
    ],
    EVENT_OPERATIONS,
  );
}
