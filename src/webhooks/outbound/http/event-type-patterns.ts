import { emittingSources, subscribableEventTypes } from '../../../core/event-catalog.js';
import { matchesEventType } from '../../../core/events.js';
import type { HttpContext } from '../../../http/context.js';

/** The most patterns one endpoint may list: more is a sign of a mistake, and every event is matched against them. */
export const MAX_EVENT_TYPE_PATTERNS = 50;

// `*`, or dot-separated names, the last of which may be `*` (`characters.*`, `webhook.mail.received`).
const PATTERN = /^(\*|[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*(\.\*)?)$/;

/** Every event type this API can append to its log, from the event catalog: `<resource>.<action>` and `webhook.<source>.received` of each source that emits. */
export function knownEventTypes(ctx: Pick<HttpContext, 'resources' | 'config'>): string[] {
  return subscribableEventTypes(ctx.resources.keys(), emittingSources(ctx.config));
}

/**
 * Every pattern an endpoint may list, which is every one that matches an event type of this API:
 * `*`, each event type, and each of their dotted prefixes with `.*` (`characters.*`, `webhook.*`).
 */
export function eventTypePatterns(ctx: Pick<HttpContext, 'resources' | 'config'>): string[] {
  const types = knownEventTypes(ctx);
  const prefixes = new Set<string>();
  for (const type of types) {
    const parts = type.split('.');
    for (let i = 1; i < parts.length; i++) prefixes.add(`${parts.slice(0, i).join('.')}.*`);
  }
  return ['*', ...prefixes, ...types];
}

/**
 * Why one event type pattern cannot be used, or undefined. A pattern that matches no event type
 * of this API is refused: a typo would otherwise subscribe to nothing, silently.
 */
export function eventTypePatternError(pattern: string, known: readonly string[]): string | undefined {
  if (pattern.length > 200 || !PATTERN.test(pattern)) {
    return 'must be `*`, an event type such as `characters.created`, or a prefix ending in `.*` such as `characters.*`';
  }
  if (!known.some((type) => matchesEventType([pattern], type))) {
    const sample = known.slice(0, 8).join(', ');
    return `matches no event type of this API (they are ${sample}${known.length > 8 ? ', …' : ''})`;
  }
  return undefined;
}
