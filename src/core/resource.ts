import { DEFAULT_ACCESS } from '../config/defaults.js';
import type { AccessConfig, Compat, FieldConfig, IdType, ResourceConfig, RestwellConfig } from '../config/types.js';

/** A declared field with its name, ready for the store and the validators. */
export interface FieldDefinition extends FieldConfig {
  name: string;
}

/** A resource as the rest of the system sees it: config made explicit. */
export interface ResourceDefinition {
  name: string;
  idType: IdType;
  description?: string;
  fields: FieldDefinition[];
  fieldsByName: Map<string, FieldDefinition>;
  access: Required<Pick<AccessConfig, 'read' | 'create' | 'update' | 'delete'>>;
  /** Writes to a record must be conditional (428 otherwise): no lost updates, by rule. */
  requireIfMatch: boolean;
  /** The fields `q=` searches (config `search`; default every string field), empty when `q=` is off. */
  search: string[];
  /** The API it answers with: Restwell's HAL API, or json-server's shapes. */
  compat: Compat;
  /** One object served at `/{name}`, not a collection: its one record has the id {@link SINGULAR_ID}. */
  singular: boolean;
}

/**
 * The id of a singular resource's one record. A fixed record id keeps everything that works on
 * records (the store, events, ETags, access rules, validation) working on it unchanged.
 */
export const SINGULAR_ID = 1;

/** Builds the resource definitions from a validated config, in config order. */
export function defineResources(config: Pick<RestwellConfig, 'resources' | 'compat'>): ResourceDefinition[] {
  return Object.entries(config.resources).map(([name, rc]) => defineResource(name, rc, config.compat ?? 'hal'));
}

function defineResource(name: string, rc: ResourceConfig, compat: Compat): ResourceDefinition {
  const fields = Object.entries(rc.fields).map(([fname, f]) => ({ ...f, name: fname }));
  // Secure by default: reads are public, writes need `<name>:write` unless the config says otherwise.
  const write = rc.access?.write ?? DEFAULT_ACCESS.write(name);
  return {
    name,
    idType: rc.id ?? 'integer',
    description: rc.description,
    fields,
    fieldsByName: new Map(fields.map((f) => [f.name, f])),
    requireIfMatch: rc.requireIfMatch ?? false,
    compat: rc.compat ?? compat,
    singular: rc.singular ?? false,
    search: rc.search === false ? [] : (rc.search ?? fields.filter((f) => f.type === 'string').map((f) => f.name)),
    access: {
      read: rc.access?.read ?? DEFAULT_ACCESS.read,
      create: rc.access?.create ?? write,
      update: rc.access?.update ?? write,
      delete: rc.access?.delete ?? write,
    },
  };
}
