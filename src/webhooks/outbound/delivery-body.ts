import type { EventRecord } from '../../core/events.js';
import { halEvent } from '../../events/http/events.js';
import type { EventBody } from './types.js';

/**
 * The body of every delivery: the event exactly as `GET /events/{id}` serves it, so a receiver
 * parses one shape whichever way it reads events. Links are made absolute against `publicUrl`
 * when it is configured (a receiver has no base to resolve a relative link against).
 */
export function eventBody(publicUrl: string | undefined): EventBody {
  return (event: EventRecord) => {
    const hal = halEvent(event);
    if (publicUrl) {
      const links = hal._links as Record<string, { href: string }>;
      for (const link of Object.values(links)) link.href = publicUrl + link.href;
    }
    return JSON.stringify(hal);
  };
}
