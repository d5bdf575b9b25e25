/**
 * A route's path and query parameters, each declared once (param.*): pathParams and queryParams
 * build them into the route's zod object, which the handler stack parses the request with and the
 * OpenAPI document describes.
 */
import * as z from 'zod/mini';
import { id, isoDate, queryBoolean, timestamp } from './common';

type Values = readonly [string, ...string[]];

/** What every parameter may say: its description, and that it must be given (every path parameter is). */
interface Declared {
  description?: string;
  required?: true;
}
interface IdParam extends Declared {
  kind: 'id';
}
interface OneOfParam<T extends Values = Values> extends Declared {
  kind: 'oneOf';
  values: T;
  default?: T[number];
  /** Other names accepted for some values, read as those values. */
  aliases?: Readonly<Record<string, T[number]>>;
}
interface TextParam extends Declared {
  kind: 'text';
  min?: number;
  max?: number;
  trim?: boolean;
  pattern?: { regex: RegExp; message?: string };
}
interface FlagParam extends Declared {
  kind: 'flag';
}
interface DateParam extends Declared {
  kind: 'date';
}
interface TimestampParam extends Declared {
  kind: 'timestamp';
}
interface IntParam extends Declared {
  kind: 'int';
  min: number;
  max: number;
  default?: number;
}
interface ListParam extends Declared {
  kind: 'list';
  item: TextParam;
  min: number;
  max: number;
}
export type Param = IdParam | OneOfParam | TextParam | FlagParam | DateParam | TimestampParam | IntParam | ListParam;

/**
 * The kinds of parameter. A query parameter is optional with no default unless its declaration
 * says `{ required: true }` or gives its `{ default }`; a path parameter is always required
 * (pathParams). An absent description leaves the parameter undescribed.
 */
export const param = {
  /** An object id: any case in, lower case out (id()). */
  id: (description?: string): IdParam => ({ kind: 'id', description }),
  /** Exactly one of `values`, or one of their `aliases`. */
  oneOf: <
    const T extends Values,
    const P extends { required: true } | { default: T[number] } | { aliases: Readonly<Record<string, T[number]>> } | object = object,
  >(
    values: T,
    description?: string,
    presence?: P,
  ) => ({ kind: 'oneOf' as const, values, description, ...(presence as P) }),
  /** Text of `min` to `max` characters (UTF-16 units, as zod counts), trimmed first when `trim`, matching `pattern` when given. */
  text: (limits: Omit<TextParam, keyof Declared | 'kind'>, description?: string): TextParam => ({ kind: 'text', ...limits, description }),
  /** Yes or no: `true` or `false` on the wire, a boolean to the handler. */
  flag: (description: string): FlagParam => ({ kind: 'flag', description }),
  /** A calendar date, YYYY-MM-DD (isoDate()). */
  date: (description?: string): DateParam => ({ kind: 'date', description }),
  /** An ISO 8601 date-time with Z or an offset (timestamp()). */
  timestamp: (description?: string): TimestampParam => ({ kind: 'timestamp', description }),
  /** A whole number from `min` to `max`. */
  int: <const P extends { default: number } | object = object>(range: { min: number; max: number }, description?: string, presence?: P) => ({
    kind: 'int' as const,
    ...range,
    description,
    ...(presence as P),
  }),
  /** `min` to `max` texts, as `name=a&name=b` or `name[]=a&name[]=b`. */
  list: (item: TextParam, count: { min: number; max: number }, description?: string): ListParam => ({ kind: 'list', item, ...count, description }),
};

const enumSchema = <const T extends Values>(values: T) => z.enum(values);
const intSchema = () => z.coerce.number().check(z.int());

/** The schema of a parameter's value, before it is made optional or given a default. */
type ValueSchema<P> = P extends IdParam
  ? ReturnType<typeof id>
  : P extends OneOfParam<infer T>
    ? P extends { aliases: object }
      ? z.ZodMiniType<T[number], string>
      : ReturnType<typeof enumSchema<T>>
    : P extends TextParam
      ? z.ZodMiniString
      : P extends FlagParam
        ? ReturnType<typeof queryBoolean>
        : P extends DateParam
          ? ReturnType<typeof isoDate>
          : P extends TimestampParam
            ? ReturnType<typeof timestamp>
            : P extends IntParam
              ? ReturnType<typeof intSchema>
              : P extends ListParam
                ? z.ZodMiniArray<z.ZodMiniString>
                : never;
/** The schema each parameter becomes, so a handler's query is typed as it was with hand-written zod. */
type ParamSchema<P> = P extends { required: true }
  ? ValueSchema<P>
  : P extends { default: unknown }
    ? z.ZodMiniDefault<ValueSchema<P>>
    : z.ZodMiniOptional<ValueSchema<P>>;
type ParamsShape<F extends Record<string, Param>> = { [K in keyof F]: ParamSchema<F[K]> };

function valueSchema(declared: Param): z.ZodMiniType {
  switch (declared.kind) {
    case 'id':
      return id();
    case 'oneOf': {
      const aliases = declared.aliases;
      if (!aliases) return enumSchema(declared.values);
      return z.pipe(
        enumSchema([...declared.values, ...Object.keys(aliases)]),
        z.transform((value) => (Object.hasOwn(aliases, value) ? aliases[value] : value)),
      );
    }
    case 'flag':
      return queryBoolean();
    case 'date':
      return isoDate();
    case 'timestamp':
      return timestamp();
    case 'int':
      return intSchema().check(z.gte(declared.min), z.lte(declared.max));
    case 'list':
      return z.array(valueSchema(declared.item)).check(z.minLength(declared.min), z.maxLength(declared.max));
    case 'text': {
      let text = z.string();
      if (declared.trim) text = text.check(z.trim());
      if (declared.min !== undefined) text = text.check(z.minLength(declared.min));
      if (declared.max !== undefined) text = text.check(z.maxLength(declared.max));
      if (declared.pattern) text = text.check(z.regex(declared.pattern.regex, declared.pattern.message));
      return text;
    }
  }
}

function paramSchema(declared: Param): z.ZodMiniType {
  const value = valueSchema(declared);
  const presence = declared.required
    ? value
    : 'default' in declared && declared.default !== undefined
      ? z._default(value, declared.default)
      : z.optional(value);
  return declared.description === undefined ? presence : presence.check(z.describe(declared.description));
}

/** A route's query: its parameters (param.*) as a zod object. */
export function queryParams<const F extends Record<string, Param>>(params: F): z.ZodMiniObject<ParamsShape<F>> {
  return z.object(Object.fromEntries(Object.entries(params).map(([name, entry]) => [name, paramSchema(entry)]))) as z.ZodMiniObject<ParamsShape<F>>;
}

/** A route's path parameters (param.*), every one required. */
export function pathParams<const F extends Record<string, Param>>(params: F): z.ZodMiniObject<{ [K in keyof F]: ValueSchema<F[K]> }> {
  const required = Object.fromEntries(Object.entries(params).map(([name, declared]) => [name, { ...declared, required: true as const }]));
  return queryParams(required) as unknown as z.ZodMiniObject<{ [K in keyof F]: ValueSchema<F[K]> }>;
}

/** `/v1/<resource>/{id}` */
export const idParams = pathParams({ id: param.id('The object id.') });

const ENTITY_ID_DESCRIPTION =
  "The entity of the API key: for a test key, the entity's test-mode id (the entity_id its objects carry). Any other value, the other mode's id included, is a 404.";
/** `/v1/entities/{entity_id}/<resource>` */
export const entityScopedParams = pathParams({ entity_id: param.id(ENTITY_ID_DESCRIPTION) });
/** `/v1/entities/{entity_id}/<resource>/{id}` */
export const entityResourceParams = pathParams({ entity_id: param.id(ENTITY_ID_DESCRIPTION), id: param.id('The object id.') });
