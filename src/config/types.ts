/** The field types a resource may declare (DESIGN §1). */
export const FIELD_TYPES = ['string', 'integer', 'number', 'boolean', 'datetime', 'json', 'enum', 'reference'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** One field of a resource, as written in the config file. */
export interface FieldConfig {
  type: FieldType;
  required?: boolean;
  unique?: boolean;
  index?: boolean;
  default?: unknown;
  maxLength?: number;
  minLength?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  values?: string[];
  to?: string;
  description?: string;
}

/** Who may perform an operation: everyone, holders of every listed scope, or the record's owner. */
export type AccessRule = 'public' | 'owner' | string[];

/** Access rules of a resource; `write` is the default for create, update and delete. */
export interface AccessConfig {
  read?: AccessRule;
  write?: AccessRule;
  create?: AccessRule;
  update?: AccessRule;
  delete?: AccessRule;
}

/** One resource (collection) as written in the config file. */
export interface ResourceConfig {
  id?: 'integer' | 'uuid';
  description?: string;
  fields: Record<string, FieldConfig>;
  access?: AccessConfig;
}

/** The validated, defaults-applied configuration the server runs with. */
export interface RestwellConfig {
  server: { port: number; host: string; bodyLimit: number; publicUrl?: string };
  database: string;
  /** Allow schema sync to drop or retype columns that the config no longer declares. */
  allowDestructiveMigrations: boolean;
  resources: Record<string, ResourceConfig>;
  idempotency: { ttlSeconds: number };
  webhooks: { sources: Record<string, Record<string, unknown>> };
  auth: Record<string, unknown>;
}
