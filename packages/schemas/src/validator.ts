import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { FieldError } from '@switchboard/domain';
import { toFieldErrors } from './field-errors';
import type { JsonSchema } from './json-schema';

/**
 * One ajv instance for every schema. `allErrors` so that a client sees all its mistakes at once;
 * the "fast" formats are plain regular expressions without catastrophic backtracking, and URLs are
 * parsed properly afterwards by the semantic checks.
 */
const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false, strictRequired: false, allowUnionTypes: true });
addFormats(ajv, { mode: 'fast', formats: ['uri', 'date-time', 'uuid'] });

/** Field errors of `data` against `schema`; empty when it is valid. */
export type SchemaValidator = (data: unknown) => FieldError[];

/** Compiles once (call at start-up, never per request) and returns a validator. */
export function compileSchema(schema: JsonSchema): SchemaValidator {
  const validate = ajv.compile(schema);
  return (data) => (validate(data) ? [] : toFieldErrors(validate.errors));
}
