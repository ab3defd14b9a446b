import type { RestwellConfig } from '../../config/types.js';
import { emittingSources, eventCatalog, type EventTypeEntry } from '../../core/event-catalog.js';
import type { ResourceDefinition } from '../../core/resource.js';
import { findProvider } from '../../webhooks/inbound/providers/index.js';

/**
 * The event catalog of a config: its resources and its emitting sources, each source with what its
 * provider posts (e-mail, SMS or events), which only the webhook providers know.
 */
export function catalogFor(config: RestwellConfig, resources: ReadonlyMap<string, ResourceDefinition>): EventTypeEntry[] {
  return eventCatalog({ resources, sources: emittingSources(config, (provider) => findProvider(provider)?.kind) });
}
