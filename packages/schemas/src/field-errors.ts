import type { ErrorObject } from 'ajv';
import type { FieldError } from '@switchboard/domain';
import { PATTERN_MESSAGES } from './json-schema';

/** A problem document lists at most this many field errors: enough to fix a request, bounded for huge ones. */
export const MAX_FIELD_ERRORS = 50;

/** RFC 6901 escaping of one reference token. */
export function pointerToken(token: string | number): string {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

export function childPointer(parent: string, token: string | number): string {
  return `${parent}/${pointerToken(token)}`;
}

function article(type: string): string {
  const names = type.split(',').map((t) => (/^[aeiou]/.test(t) ? `an ${t}` : `a ${t}`));
  return names.join(' or ');
}

/** ajv marks errors found while checking `propertyNames` with the offending property name. */
type AjvError = ErrorObject & { propertyName?: string };

function describe(error: AjvError): FieldError | null {
  const at = error.instancePath;
  const params = error.params as Record<string, unknown>;
  if (error.propertyName !== undefined) {
    const inner = describe({ ...error, propertyName: undefined });
    return { field: childPointer(at, error.propertyName), message: `name ${inner?.message ?? 'is invalid'}` };
  }
  switch (error.keyword) {
    // Both are echoes of more precise errors reported beside them.
    case 'if':
    case 'propertyNames':
      return null;
    // `properties: { x: false }`: a property that may not appear beside another one.
    case 'false schema':
      return { field: at, message: 'is not allowed here' };
    case 'required':
      return { field: childPointer(at, String(params.missingProperty)), message: 'is required' };
    case 'additionalProperties':
      return { field: childPointer(at, String(params.additionalProperty)), message: 'is not an allowed property' };
    case 'enum':
      return { field: at, message: `must be one of: ${(params.allowedValues as unknown[]).map((v) => String(v)).join(', ')}` };
    case 'const':
      return { field: at, message: `must be ${JSON.stringify(params.allowedValue)}` };
    case 'uniqueItems':
      return {
        field: childPointer(at, Math.max(Number(params.i), Number(params.j))),
        message: `duplicates item ${Math.min(Number(params.i), Number(params.j))}`,
      };
    case 'pattern':
      return { field: at, message: PATTERN_MESSAGES[String(params.pattern)] ?? `must match ${String(params.pattern)}` };
    case 'format':
      return { field: at, message: `must be a valid ${String(params.format)}` };
    case 'type':
      return { field: at, message: `must be ${article(String(params.type))}` };
    case 'minLength':
      return { field: at, message: `must be at least ${String(params.limit)} character${params.limit === 1 ? '' : 's'} long` };
    case 'maxLength':
      return { field: at, message: `must be at most ${String(params.limit)} characters long` };
    case 'minItems':
      return { field: at, message: `must have at least ${String(params.limit)} item${params.limit === 1 ? '' : 's'}` };
    case 'maxItems':
      return { field: at, message: `must have at most ${String(params.limit)} items` };
    case 'maxProperties':
      return { field: at, message: `must have at most ${String(params.limit)} properties` };
    case 'minimum':
    case 'maximum':
      return { field: at, message: `must be ${error.keyword === 'minimum' ? '≥' : '≤'} ${String(params.limit)}` };
    default:
      return { field: at, message: error.message ?? 'is invalid' };
  }
}

/**
 * Turns ajv errors into the field errors of docs/errors.md: `field` is a JSON Pointer into the body; a missing or
 * unknown property is pointed at itself (`/recipient`), not at its parent object. The first error
 * found for a field is the one reported.
 */
export function toFieldErrors(errors: readonly ErrorObject[] | null | undefined): FieldError[] {
  const out: FieldError[] = [];
  const seen = new Set<string>();
  for (const error of errors ?? []) {
    const fieldError = describe(error);
    if (!fieldError) continue;
    // One message per field: a client fixes a field at a time, and "not a URL" need not also say "wrong scheme".
    if (seen.has(fieldError.field)) continue;
    seen.add(fieldError.field);
    out.push(fieldError);
    if (out.length >= MAX_FIELD_ERRORS) break;
  }
  return out;
}
