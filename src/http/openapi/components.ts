/** A JSON Schema (2020-12) or any other OpenAPI object, as plain JSON. */
export type Json = Record<string, unknown>;

type Section = 'schemas' | 'responses' | 'parameters' | 'headers';

/**
 * The `components` of a document, filled on demand: a component exists only once something refers
 * to it, so the document never carries unused components (Spectral's `oas3-unused-component`).
 * Keys say what a component is (e.g. `record:characters`); names are what the document shows.
 */
export class Components {
  private readonly sections: Record<Section, Record<string, unknown>> = { schemas: {}, responses: {}, parameters: {}, headers: {} };
  private readonly names = new Map<string, string>();

  /** A `$ref` to the component for `key`, building it (once) with `build` the first time. */
  ref(section: Section, key: string, preferredName: string, build: () => Json): { $ref: string } {
    const id = `${section}:${key}`;
    let name = this.names.get(id);
    if (!name) {
      name = this.freeName(section, preferredName);
      this.names.set(id, name);
      // Reserve the name before building, so a schema may refer to itself or to others.
      this.sections[section][name] = {};
      this.sections[section][name] = build();
    }
    return { $ref: `#/components/${section}/${name}` };
  }

  /** A `$ref` to a schema component. */
  schema(key: string, preferredName: string, build: () => Json): { $ref: string } {
    return this.ref('schemas', key, preferredName, build);
  }

  /** The `components` object, without empty sections. */
  toJSON(): Json {
    return Object.fromEntries(Object.entries(this.sections).filter(([, v]) => Object.keys(v).length > 0));
  }

  private freeName(section: Section, preferred: string): string {
    const base = preferred.replace(/[^A-Za-z0-9._-]/g, '') || 'Component';
    let name = base;
    for (let i = 2; name in this.sections[section]; i++) name = `${base}${i}`;
    return name;
  }
}

/** `order-items` → `OrderItems`: a component-name-friendly form of a resource name. */
export function pascal(name: string): string {
  return name
    .split(/[-_\s]+/)
    .filter(Boolean)
    .map((p) => p.charAt(0).toUpperCase() + p.slice(1))
    .join('');
}
