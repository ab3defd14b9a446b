import type { ResourceDefinition } from '../../core/resource.js';

/** A request's query parameters as parsed (a name given twice is an array). */
export type RawQuery = Record<string, string | string[] | undefined>;

/**
 * How the HAL routes read query parameters written for another API: its list parameters rewritten
 * into Restwell's, and a read's expansions. The app passes one in (json-server's), so this feature
 * knows no other.
 */
export interface QueryDialect {
  /** The list parameters in Restwell's terms; a parameter with no exact equivalent is a 400 naming the Restwell way. */
  list(resource: ResourceDefinition, raw: RawQuery, resources: ReadonlyMap<string, ResourceDefinition>): RawQuery;
  /** The `expand` values of a read (`GET /{collection}/{id}`). */
  readExpand(resource: ResourceDefinition, raw: RawQuery, resources: ReadonlyMap<string, ResourceDefinition>): string[];
}

/** Restwell's own parameters only. */
export const NATIVE_QUERY: QueryDialect = {
  list: (_resource, raw) => raw,
  readExpand: (_resource, raw) => [raw.expand ?? []].flat(),
};
