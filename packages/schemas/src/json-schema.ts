import { ID_PREFIXES, QUIET_HOURS_TIME_PATTERN, type IdPrefix } from '@switchboard/domain';

/**
 * A JSON Schema (draft 2020-12) as a plain object. The same objects are compiled by ajv for request
 * validation and embedded unchanged in the OpenAPI 3.1 document, whose dialect is 2020-12.
 */
export type JsonSchema = { [keyword: string]: unknown };

/**
 * The TypeScript type of what a schema written `as const` accepts, so that a type and the schema ajv checks with
 * cannot disagree (docs/voice-agents.md#node-types). It reads `const`, `enum`, `type`, `items`, `properties` and
 * `required`; the other keywords narrow values within the same type. Any other keyword that shapes a value
 * (`oneOf`, `$ref`, …) would come out `unknown`, so this package's unit tests keep the agent node schemas to the
 * keywords read here.
 */
export type SchemaValue<S> = S extends { const: infer C }
  ? C
  : S extends { enum: ReadonlyArray<infer E> }
    ? E
    : S extends { type: 'string' }
      ? string
      : S extends { type: 'integer' | 'number' }
        ? number
        : S extends { type: 'boolean' }
          ? boolean
          : S extends { type: 'array'; items: infer I }
            ? Array<SchemaValue<I>>
            : S extends { type: 'object'; properties: infer P }
              ? SchemaObject<P, S extends { required: ReadonlyArray<infer R> } ? R : never>
              : S extends { type: 'object' }
                ? Record<string, unknown>
                : unknown;

/** An object with `properties` P, of which the keys R are required; flattened so that editors show its fields. */
type SchemaObject<P, R> = Flatten<{ -readonly [K in keyof P & R]: SchemaValue<P[K]> } & { -readonly [K in Exclude<keyof P, R>]?: SchemaValue<P[K]> }>;
type Flatten<T> = { [K in keyof T]: T[K] };

/** Shape of an E.164 number; full validity is checked afterwards with libphonenumber (docs/conventions.md#phone-numbers). */
export const E164_PATTERN = '^\\+[1-9][0-9]{6,14}$';
/** Template names as registered (docs/chat.md#templates): lowercase letters, digits and `_`. */
export const TEMPLATE_NAME_PATTERN = '^[a-z0-9_]{1,512}$';
/** Language codes as the chat upstream writes them: `en`, `en_US`, `pt_BR`, `zh_Hant`. */
export const TEMPLATE_LANGUAGE_PATTERN = '^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,8})?$';
/** Callback URLs are web URLs; whether plain http is allowed is a deployment decision (docs/webhooks.md#target-guard-ssrf). */
export const HTTP_URL_PATTERN = '^[Hh][Tt][Tt][Pp][Ss]?://';

/** A public id of one kind: the prefix and a ULID, as `isId` of `@switchboard/domain` checks it. */
export function idPattern(prefix: IdPrefix): string {
  return `^${prefix}_[0-9A-HJKMNP-TV-Z]{26}$`;
}

/** The resources events are about: messages, calls and inbound replies. */
export const EVENT_RESOURCE_ID_PATTERN = '^(msg|call|inb)_[0-9A-HJKMNP-TV-Z]{26}$';

/** Readable messages for patterns, keyed by the pattern text, instead of ajv's "must match pattern …". */
export const PATTERN_MESSAGES: Readonly<Record<string, string>> = {
  [E164_PATTERN]: 'must be an E.164 phone number such as +14155550123',
  [TEMPLATE_NAME_PATTERN]: 'must be 1 to 512 lowercase letters, digits or underscores',
  [TEMPLATE_LANGUAGE_PATTERN]: 'must be a language code such as en or en_US',
  [HTTP_URL_PATTERN]: 'must be an http or https URL',
  [EVENT_RESOURCE_ID_PATTERN]: 'must be a msg_, call_ or inb_ id',
  [QUIET_HOURS_TIME_PATTERN]: 'must be a time of day HH:MM such as 21:00',
  ...Object.fromEntries(ID_PREFIXES.map((prefix) => [idPattern(prefix), `must be a ${prefix}_ id`])),
};

export function e164Schema(description: string): JsonSchema {
  return { type: 'string', pattern: E164_PATTERN, description };
}

export function idSchema(prefix: IdPrefix): JsonSchema {
  return { type: 'string', pattern: idPattern(prefix) };
}
