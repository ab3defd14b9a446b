import type { OutgoingHttpHeaders } from 'node:http';
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { eventVisibility } from '../../auth/access.js';
import type { AuthContext } from '../../auth/http/auth-context.js';
import type { Principal } from '../../auth/principal.js';
import { sendProblem } from '../../http/problems.js';
import { eventIdTime, eventsExpired } from './events-expired.js';
import { isEventId } from '../../store/records.js';
import { eventStreams, type EventStreams, type StreamHolder } from '../stream/event-streams.js';
import { retryFrame, sseFrame } from '../stream/sse-frame.js';
import { StreamClient, type StreamFilter } from '../stream/stream-client.js';
import { acceptsEventStream, parseStreamRequest } from './stream-request.js';
import { parseEventSelection } from './event-selection.js';

/** What a client waits before reconnecting after its stream ends (shutdown, a drop, a network blip). */
const RETRY_MS = 2000;
/** Seconds a client refused for `maxClients` is told to wait. */
const FULL_RETRY_AFTER_SECONDS = 5;
/** Events per query while a resuming client catches up; small, since each page is written with backpressure. */
const CATCH_UP_PAGE = 100;

/** The response headers of a stream: never cached, never buffered by a proxy (nginx honours X-Accel-Buffering). */
const STREAM_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' };

/**
 * `GET /events/stream`: the event log as Server-Sent Events, live. A client sees what `GET /events`
 * would show it (its visibility, its `type=`), from the end of the log or, with Last-Event-ID,
 * from just after the event it names, without a gap or a repeat.
 */
export function streamEvents(ctx: AuthContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const streams = eventStreams(ctx, request.server.log);
    // A revocation here while the stream is set up finds no watch yet: counted, so the stream checks once it watches.
    const revocations = ctx.auth.revocations.count;
    const asked = parseStreamRequest(request);
    if (!acceptsEventStream(request.headers.accept)) {
      return sendProblem(request, reply, 'not-acceptable', 'GET /events/stream serves text/event-stream only; accept it (or */*), or page GET /events for JSON');
    }
    if (streams.full) {
      reply.header('retry-after', String(FULL_RETRY_AFTER_SECONDS));
      return sendProblem(request, reply, 'too-many-streams', `this node serves ${streams.config.maxClients} event streams already (events.stream.maxClients); retry later`);
    }
    const selection = parseEventSelection(request.query as Record<string, unknown>, ctx);
    const filter: StreamFilter = { visible: eventVisibility(ctx.resources.values(), request.principal), types: asked.types, resources: selection.resources, match: selection.filter };
    // Counted at once, before any wait, so concurrent requests cannot all pass the cap.
    const client = request.method === 'HEAD' ? undefined : new StreamClient(reply.raw, filter, streams.config.bufferBytes, request.log);
    if (client) streams.add(client);
    let after: number | undefined;
    if (asked.lastEventId !== undefined) {
      const id = asked.lastEventId;
      const last = isEventId(id) ? await ctx.store.getEvent(id, filter.visible) : undefined;
      if (!last && isEventId(id)) {
        const expired = await expiredId(ctx, id, filter);
        if (expired) return sendProblem(request, reply, 'events-expired', expired);
      }
      if (!last) return sendProblem(request, reply, 'invalid-last-event-id', `Last-Event-ID ${JSON.stringify(id.slice(0, 80))} names no event you can read; send the id: of an event this stream sent (evt_…), or none to start at the end of the log`);
      after = last.seq;
    }
    // HEAD gets GET's headers: an empty stream, as GET's has no Content-Length (Fastify would send 0).
    if (!client) return reply.code(200).headers(STREAM_HEADERS).send(Readable.from([]));
    client.resumeAfter(after ?? 0);
    // Joined before the first byte: if the database cannot be read the client still gets a 503 problem.
    await streams.tail.join(client);
    reply.hijack();
    reply.raw.writeHead(200, { ...(reply.getHeaders() as OutgoingHttpHeaders), ...STREAM_HEADERS });
    reply.raw.write(retryFrame(RETRY_MS));
    holdCredential(streams, client, request.principal);
    streams.opened(client, request.log, streamHolder(request.principal), { types: filter.types, resumed: after !== undefined });
    if (ctx.auth.revocations.count !== revocations) void streams.credentials.check();
    // Without Last-Event-ID the stream starts where the tail is: everything after it comes live.
    if (after === undefined) client.goLive();
    else await catchUp(ctx, streams, client, filter, after);
  };
}

/**
 * Writes what the client missed (from the log, in pages) and then lets it go live. Events the tail
 * handed it meanwhile waited in its backlog; those the log pages already wrote are skipped by position.
 */
async function catchUp(ctx: AuthContext, streams: EventStreams, client: StreamClient, filter: StreamFilter, after: number): Promise<void> {
  try {
    let position = after;
    for (;;) {
      const page = await ctx.store.listEvents({ after: position, limit: CATCH_UP_PAGE, types: filter.types, resources: filter.resources, recordId: filter.match?.recordId, visible: filter.visible });
      for (const event of page) {
        if (client.isClosed) return;
        // The field conditions are not SQL: applied here, as they are to live events.
        if (!client.wants(event)) continue;
        await client.catchUp(event, sseFrame(event));
      }
      if (page.length < CATCH_UP_PAGE) break;
      position = page.at(-1)!.seq;
    }
    client.goLive();
  } catch (err) {
    // Headers are out, so no problem can be sent: end the stream, and the client resumes after `retry`.
    streams.log.warn({ err }, 'event stream: catching up from the log failed; the client will resume');
    void client.end('catching up failed', 'error');
  }
}

/** Who a stream serves, for its log lines: how the credential was verified and its public handle (never the token). */
function streamHolder(principal: Principal | undefined): StreamHolder {
  return principal ? { via: principal.via, principal: principal.rateKey } : { via: 'anonymous' };
}

/** The longest delay setTimeout takes; a longer one would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * A stream lasts only as long as the credential it was opened with: its expiry ends it (an API
 * key's, an access token's, an external issuer's `exp`), and so does its revocation, which the
 * node's credential watch finds (on whichever node it was made). The client reconnects, and is
 * checked again.
 */
function holdCredential(streams: EventStreams, client: StreamClient, principal: Principal | undefined): void {
  const unwatch = streams.credentials.watch(principal, (why) => void client.end(why, 'revoked'));
  const expiresAt = principal?.expiresAt;
  const timer = expiresAt === undefined ? undefined : setTimeout(() => void client.end('the credential expired', 'expired'), Math.min(Math.max(0, expiresAt * 1000 - Date.now()), MAX_TIMER_MS)).unref();
  void client.ended.then(() => {
    clearTimeout(timer);
    unwatch();
  });
}

/**
 * When a Last-Event-ID names no event kept but was drawn no later than the newest event retention
 * pruned (ids are UUIDv7s, so they carry their time): the 410 detail, since resuming at the end
 * would skip what was pruned. Any other unknown id stays a 400.
 */
async function expiredId(ctx: AuthContext, id: string, filter: StreamFilter): Promise<string | undefined> {
  const pruned = await ctx.store.retention.eventsPrunedThrough();
  // A second of slack: an id is drawn a moment before its event's time is taken.
  if (!pruned || eventIdTime(id) > Date.parse(pruned.at) + 1000) return undefined;
  return eventsExpired(ctx.store, 0, filter.visible, 'Resync: re-read the state you derive from events, then reconnect without Last-Event-ID (the stream starts at the end of the log), or page GET /events from the start.');
}
