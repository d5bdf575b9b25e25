/**
 * A route's path and query parameters, each declared once (param.*): pathParams and queryParams
 * build them into the route's zod schema on first use, for the handler stack's errors and the
 * OpenAPI document, and readPath and readQuery read a request's parameters without zod. A GET's
 * first request then loads no zod, whether it reads by id, lists, filters or asks for a report
 * (shared/schemas/lazy.ts).
 */
import { z } from 'zod';
import { id, isoDate, queryBoolean, readId, readIsoDate, readTimestamp, timestamp } from './common';
import { onFirstUse } from './lazy';

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
const intSchema = () => z.coerce.number().int();

/** The schema of a parameter's value, before it is made optional or given a default. */
type ValueSchema<P> = P extends IdParam
  ? ReturnType<typeof id>
  : P extends OneOfParam<infer T>
    ? P extends { aliases: object }
      ? z.ZodType<T[number], string>
      : ReturnType<typeof enumSchema<T>>
    : P extends TextParam
      ? z.ZodString
      : P extends FlagParam
        ? ReturnType<typeof queryBoolean>
        : P extends DateParam
          ? ReturnType<typeof isoDate>
          : P extends TimestampParam
            ? ReturnType<typeof timestamp>
            : P extends IntParam
              ? ReturnType<typeof intSchema>
              : P extends ListParam
                ? z.ZodArray<z.ZodString>
                : never;
/** The schema each parameter becomes, so a handler's query is typed as it was with hand-written zod. */
type ParamSchema<P> = P extends { required: true }
  ? ValueSchema<P>
  : P extends { default: unknown }
    ? z.ZodDefault<ValueSchema<P>>
    : z.ZodOptional<ValueSchema<P>>;
type ParamsShape<F extends Record<string, Param>> = { [K in keyof F]: ParamSchema<F[K]> };

function valueSchema(declared: Param): z.ZodType {
  switch (declared.kind) {
    case 'id':
      return id();
    case 'oneOf': {
      const aliases = declared.aliases;
      if (!aliases) return enumSchema(declared.values);
      return enumSchema([...declared.values, ...Object.keys(aliases)]).transform((value) => (Object.hasOwn(aliases, value) ? aliases[value] : value));
    }
    case 'flag':
      return queryBoolean();
    case 'date':
      return isoDate();
    case 'timestamp':
      return timestamp();
    case 'int':
      return intSchema().min(declared.min).max(declared.max);
    case 'list':
      return z.array(valueSchema(declared.item)).min(declared.min).max(declared.max);
    case 'text': {
      let text = z.string();
      if (declared.trim) text = text.trim();
      if (declared.min !== undefined) text = text.min(declared.min);
      if (declared.max !== undefined) text = text.max(declared.max);
      if (declared.pattern) text = text.regex(declared.pattern.regex, declared.pattern.message);
      return text;
    }
  }
}

function paramSchema(declared: Param): z.ZodType {
  const value = valueSchema(declared);
  const presence = declared.required ? value : 'default' in declared && declared.default !== undefined ? value.default(declared.default) : value.optional();
  return declared.description === undefined ? presence : presence.describe(declared.description);
}

/** The parameters of every query schema queryParams built, by schema. */
const declaredQueries = new WeakMap<object, ReadonlyMap<string, Param>>();

/** A route's query: its parameters (param.*), built into a zod object on first use and read without zod by readQuery. */
export function queryParams<const F extends Record<string, Param>>(params: F): z.ZodObject<ParamsShape<F>> {
  const declared = Object.entries(params);
  const schema = onFirstUse(() => z.object(Object.fromEntries(declared.map(([name, entry]) => [name, paramSchema(entry)]))) as z.ZodObject<ParamsShape<F>>);
  declaredQueries.set(schema, new Map(declared));
  return schema;
}

/** A route's path parameters (param.*), every one required, built and read as a query's are. */
export function pathParams<const F extends Record<string, Param>>(params: F): z.ZodObject<{ [K in keyof F]: ValueSchema<F[K]> }> {
  const required = Object.fromEntries(Object.entries(params).map(([name, declared]) => [name, { ...declared, required: true as const }]));
  return queryParams(required) as unknown as z.ZodObject<{ [K in keyof F]: ValueSchema<F[K]> }>;
}

/** `/v1/<resource>/{id}` */
export const idParams = pathParams({ id: param.id('The object id.') });

const ENTITY_ID_DESCRIPTION =
  "The entity of the API key: for a test key, the entity's test-mode id (the entity_id its objects carry). Any other value, the other mode's id included, is a 404.";
/** `/v1/entities/{entity_id}/<resource>` */
export const entityScopedParams = pathParams({ entity_id: param.id(ENTITY_ID_DESCRIPTION) });
/** `/v1/entities/{entity_id}/<resource>/{id}` */
export const entityResourceParams = pathParams({ entity_id: param.id(ENTITY_ID_DESCRIPTION), id: param.id('The object id.') });

const INT_PATTERN = /^(0|-?[1-9][0-9]{0,14})$/;

/** What a parameter's schema parses `value` into, or undefined where it would refuse it (or is not sure to accept it). */
function readValue(declared: Exclude<Param, ListParam>, value: string): string | number | boolean | undefined {
  switch (declared.kind) {
    case 'id':
      return readId(value);
    case 'oneOf':
      return declared.values.includes(value) ? value : declared.aliases && Object.hasOwn(declared.aliases, value) ? declared.aliases[value] : undefined;
    case 'flag':
      return value === 'true' ? true : value === 'false' ? false : undefined;
    case 'date':
      return readIsoDate(value);
    case 'timestamp':
      return readTimestamp(value);
    case 'int': {
      const number = Number(value);
      return INT_PATTERN.test(value) && number >= declared.min && number <= declared.max ? number : undefined;
    }
    case 'text': {
      const text = declared.trim ? value.trim() : value;
      const fits = text.length >= (declared.min ?? 0) && text.length <= (declared.max ?? Infinity);
      return fits && (!declared.pattern || declared.pattern.regex.test(text)) ? text : undefined;
    }
  }
}

/**
 * What a query schema built by queryParams parses a query string into, read without building the
 * schema: every name one of its parameters, each value one it accepts as written. Undefined for
 * every other query string (an unknown or repeated name, a value the schema would coerce or
 * refuse, a required parameter missing, a schema queryParams did not build): the caller then
 * parses it with the schema and gets the schema's answer. `values` are the query's names and
 * values as the handler stack collects them (queryValues), without `expand`. A property test holds
 * readQuery to the schema's answers for every route.
 */
export function readQuery(schema: unknown, values: ReadonlyMap<string, readonly string[]>): Record<string, unknown> | undefined {
  const params = typeof schema === 'object' && schema !== null ? declaredQueries.get(schema) : undefined;
  if (params === undefined) return undefined;
  const query: Record<string, unknown> = {};
  for (const [givenName, given] of values) {
    const bracketed = givenName.endsWith('[]');
    const name = bracketed ? givenName.slice(0, -2) : givenName;
    const declared = params.get(name);
    if (declared === undefined) return undefined;
    if (declared.kind === 'list') {
      const items = given.map((value) => readValue(declared.item, value));
      if (items.includes(undefined)) return undefined;
      query[name] = [...((query[name] as unknown[] | undefined) ?? []), ...items];
      continue;
    }
    const parsed = !bracketed && given.length === 1 ? readValue(declared, given[0]) : undefined;
    if (parsed === undefined) return undefined;
    query[name] = parsed;
  }
  for (const [name, declared] of params) {
    const value = Object.hasOwn(query, name) ? query[name] : undefined;
    if (value === undefined) {
      if (declared.required) return undefined;
      if ('default' in declared && declared.default !== undefined) query[name] = declared.default;
    } else if (declared.kind === 'list' && ((value as unknown[]).length < declared.min || (value as unknown[]).length > declared.max)) return undefined;
  }
  return query;
}

/** What a schema built by pathParams parses a request's path parameters into, read without zod as readQuery reads a query. */
export function readPath(schema: unknown, pathParameters: Readonly<Record<string, string | undefined>>): Record<string, unknown> | undefined {
  const values = new Map<string, string[]>();
  for (const [name, value] of Object.entries(pathParameters)) if (value !== undefined) values.set(name, [value]);
  return readQuery(schema, values);
}
