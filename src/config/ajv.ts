import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/**
 * A JSON Schema (2020-12) validator as Restwell compiles every schema: all errors reported, formats
 * (date-time, uuid …) checked. Request bodies and the config's field defaults are checked alike, so
 * a default passes at load exactly when a request body holding the same value would.
 */
export function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  return ajv;
}

/** The one validator the config loader compiles its schemas with (the file's, and its fields' defaults). */
export const configAjv = createAjv();
