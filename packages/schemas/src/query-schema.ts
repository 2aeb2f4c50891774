import type { FieldError } from '@switchboard/domain';
import type { JsonSchema } from './json-schema';
import { compileSchema } from './validator';

/** Field errors of a query string; each names its parameter as `query:<name>` (docs/errors.md). */
export type QueryValidator = (query: Record<string, unknown>) => FieldError[];

function parameterOf(pointer: string): string {
  const token = pointer.split('/')[1] ?? '';
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/**
 * Compiles a schema over the parsed query object (every value a string). A value that is not a
 * string was given more than once (`?type=a&type=b`), and is answered so. Unknown parameters are
 * the schema's business; the usual GET leaves them out of `properties` and ignores them.
 */
export function compileQuerySchema(schema: JsonSchema): QueryValidator {
  const validate = compileSchema(schema);
  return (query) =>
    validate(query).map((error) => ({
      field: `query:${parameterOf(error.field)}`,
      message: error.message === 'must be a string' ? 'must be given once' : error.message,
    }));
}
