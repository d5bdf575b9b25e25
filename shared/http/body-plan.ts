/**
 * A write's JSON body read without zod: the route's body schema compiled into a plan (plain data),
 * and a reader that follows it. A write's first request then loads no zod, as a read's does
 * (shared/schemas/parameters.ts): loading zod, building the body's schema and its first parse were
 * about 25 ms of every write function's cold start.
 *
 * The plan is compiled when the functions are bundled and shipped beside the code
 * (`body-plan.json`, infra/functions.ts); without that file (tests, `npm start`) the stack compiles
 * it on the route's first request. The reader answers only what zod would answer: a body it
 * accepts comes out exactly as zod would give it, key order included; anything it cannot vouch
 * for (a refused value, a key it does not know, a `__proto__` key) it leaves to zod, which gives
 * the error. test/unit/body-plan.test.ts holds every route's plan to zod's parse.
 *
 * A schema the plan cannot express exactly (a refinement other than the shared NAMED_CHECKS, a
 * transform other than decimalInput, a union, a URL format, ...) compiles to no plan: that route
 * parses with zod, as before.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { decimalInputOptions, decimalInputValue, isDecimalText, type DecimalInputOptions } from '../money';
import { NAMED_CHECKS } from '../schemas/common';

type Primitive = string | number | boolean | null;

/** One step of a string's checks, in the schema's order (a trim changes what later steps see). */
type StringStep =
  { min: number } | { max: number } | { length: number } | { pattern: string; flags: string } | { rewrite: 'trim' | 'lower' | 'upper' } | { check: string };

export type BodyPlan =
  | { kind: 'object'; fields: [string, BodyPlan][]; unknownKeys: 'refuse' | 'strip' }
  | { kind: 'string'; steps: StringStep[] }
  | { kind: 'number'; integer: boolean; bounds: { value: number; above: boolean; inclusive: boolean }[] }
  | { kind: 'boolean' }
  | { kind: 'oneOf'; values: Primitive[] }
  | { kind: 'optional'; inner: BodyPlan }
  | { kind: 'nullable'; inner: BodyPlan }
  | { kind: 'default'; value: Primitive; inner: BodyPlan }
  | { kind: 'array'; item: BodyPlan; min?: number; max?: number }
  | { kind: 'record'; key: BodyPlan & { kind: 'string' }; value: BodyPlan; checks: string[] }
  | { kind: 'decimal'; options: DecimalInputOptions };

/** String formats that are exactly their pattern in zod (no other test behind them). */
const PATTERN_FORMATS = new Set(['regex', 'uuid', 'guid', 'date', 'datetime', 'time', 'email']);

interface Internals {
  def: Record<string, unknown> & { type: string; checks?: { _zod: Internals }[] };
  innerType?: z.ZodType;
  values?: Set<unknown>;
}
const internals = (schema: unknown): Internals => (schema as { _zod: Internals })._zod;

let rewrites: Map<string, 'trim' | 'lower' | 'upper'> | undefined;
/** zod's own trim, toLowerCase and toUpperCase, known by their source. */
function rewriteOf(tx: unknown): 'trim' | 'lower' | 'upper' | undefined {
  rewrites ??= new Map(
    (
      [
        ['trim', z.string().trim()],
        ['lower', z.string().toLowerCase()],
        ['upper', z.string().toUpperCase()],
      ] as const
    ).map(([name, schema]) => [String(internals(schema).def.checks![0]._zod.def.tx), name]),
  );
  return typeof tx === 'function' ? rewrites.get(String(tx)) : undefined;
}

const namedCheck = (fn: unknown): string | undefined => Object.entries(NAMED_CHECKS).find(([, check]) => check === fn)?.[0];
const isPrimitive = (value: unknown): value is Primitive => value === null || ['string', 'number', 'boolean'].includes(typeof value);

class Inexpressible extends Error {}
const inexpressible = (what: string): never => {
  throw new Inexpressible(what);
};

function stringStep(def: Record<string, unknown>): StringStep {
  switch (def.check) {
    case 'min_length':
      return { min: def.minimum as number };
    case 'max_length':
      return { max: def.maximum as number };
    case 'length_equals':
      return { length: def.length as number };
    case 'string_format':
      if (!PATTERN_FORMATS.has(def.format as string) || !(def.pattern instanceof RegExp)) return inexpressible(`format ${String(def.format)}`);
      return { pattern: def.pattern.source, flags: def.pattern.flags.replace('g', '') };
    case 'overwrite':
      return { rewrite: rewriteOf(def.tx) ?? inexpressible('a rewrite') };
    case 'custom':
      return { check: namedCheck(def.fn) ?? inexpressible('a refinement') };
    default:
      return inexpressible(`check ${String(def.check)}`);
  }
}

function lengthLimits(checks: { _zod: Internals }[] | undefined): { min?: number; max?: number } {
  const limits: { min?: number; max?: number } = {};
  for (const check of checks ?? []) {
    const def = check._zod.def;
    if (def.check === 'min_length') limits.min = Math.max(limits.min ?? 0, def.minimum as number);
    else if (def.check === 'max_length') limits.max = Math.min(limits.max ?? Infinity, def.maximum as number);
    else inexpressible(`check ${String(def.check)}`);
  }
  return limits;
}

function compile(schema: unknown): BodyPlan {
  const zod = internals(schema);
  const { def } = zod;
  const decimal = decimalInputOptions(def);
  if (decimal) return { kind: 'decimal', options: decimal };
  switch (def.type) {
    case 'lazy':
      return compile(zod.innerType);
    case 'object': {
      if (def.checks?.length) return inexpressible('an object refinement');
      const catchall = def.catchall === undefined ? 'strip' : internals(def.catchall).def.type;
      if (catchall !== 'strip' && catchall !== 'never') return inexpressible('an object that keeps unknown keys');
      const fields = Object.entries(def.shape as Record<string, unknown>).map(([key, field]): [string, BodyPlan] => {
        if (key === '__proto__') inexpressible('a __proto__ field');
        return [key, compile(field)];
      });
      return { kind: 'object', fields, unknownKeys: catchall === 'never' ? 'refuse' : 'strip' };
    }
    case 'string': {
      // A format schema (z.uuid(), z.iso.date()) is its own first check.
      const own = def.format === undefined ? [] : [stringStep({ ...def, check: 'string_format' })];
      return { kind: 'string', steps: [...own, ...(def.checks ?? []).map((check) => stringStep(check._zod.def))] };
    }
    case 'number': {
      let integer = def.format === 'safeint';
      if (def.format !== undefined && !integer) inexpressible('a number format');
      const bounds: { value: number; above: boolean; inclusive: boolean }[] = [];
      for (const check of def.checks ?? []) {
        const { check: kind, value, inclusive, format } = check._zod.def;
        if (kind === 'number_format' && format === 'safeint') integer = true;
        else if (kind === 'greater_than' || kind === 'less_than')
          bounds.push({ value: value as number, above: kind === 'greater_than', inclusive: inclusive === true });
        else inexpressible(`check ${String(kind)}`);
      }
      return { kind: 'number', integer, bounds };
    }
    case 'boolean':
      if (def.checks?.length) return inexpressible('a boolean refinement');
      return { kind: 'boolean' };
    case 'literal':
    case 'enum': {
      const values = [...(zod.values ?? [])];
      if (def.checks?.length || !values.every(isPrimitive)) return inexpressible(`${def.type} values`);
      return { kind: 'oneOf', values };
    }
    case 'optional':
    case 'nullable':
      if (def.checks?.length) return inexpressible(`a ${def.type} refinement`);
      return { kind: def.type, inner: compile(def.innerType) };
    case 'default': {
      const value = def.defaultValue;
      if (def.checks?.length || !isPrimitive(value)) return inexpressible('a default that is not a plain value');
      return { kind: 'default', value, inner: compile(def.innerType) };
    }
    case 'array':
      return { kind: 'array', item: compile(def.element), ...lengthLimits(def.checks) };
    case 'record': {
      const key = compile(def.keyType);
      if (key.kind !== 'string' || internals(def.keyType).values !== undefined || (def.mode !== undefined && def.mode !== 'strict')) {
        return inexpressible('record keys');
      }
      const checks = (def.checks ?? []).map((check) => namedCheck(check._zod.def.fn) ?? inexpressible('a record refinement'));
      return { kind: 'record', key, value: compile(def.valueType), checks };
    }
    default:
      return inexpressible(def.type);
  }
}

/** The file beside a function's code that holds its route's body plan (JSON; null when the route parses with zod). */
export const BODY_PLAN_FILE = 'body-plan.json';

/**
 * The body plan shipped beside this function's code: a plan, null when its route parses with zod,
 * undefined when there is no such file (tests and `npm start` run the sources: compileBodyPlan).
 */
export function shippedBodyPlan(): BodyPlan | null | undefined {
  try {
    return JSON.parse(readFileSync(new URL(`./${BODY_PLAN_FILE}`, import.meta.url), 'utf8')) as BodyPlan | null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The plan of a body schema, or undefined when zod alone can read it exactly. */
export function compileBodyPlan(schema: z.ZodType): BodyPlan | undefined {
  try {
    const plan = compile(schema);
    return plan.kind === 'object' ? plan : undefined;
  } catch (error) {
    if (error instanceof Inexpressible) return undefined;
    throw error;
  }
}

const REFUSED: unique symbol = Symbol('refused');

const patterns = new WeakMap<object, RegExp>();
function patternOf(step: { pattern: string; flags: string }): RegExp {
  let pattern = patterns.get(step);
  if (!pattern) patterns.set(step, (pattern = new RegExp(step.pattern, step.flags)));
  return pattern;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function readString(steps: StringStep[], value: unknown): string | typeof REFUSED {
  if (typeof value !== 'string') return REFUSED;
  let text = value;
  for (const step of steps) {
    if ('min' in step) {
      if (text.length < step.min) return REFUSED;
    } else if ('max' in step) {
      if (text.length > step.max) return REFUSED;
    } else if ('length' in step) {
      if (text.length !== step.length) return REFUSED;
    } else if ('pattern' in step) {
      if (!patternOf(step).test(text)) return REFUSED;
    } else if ('rewrite' in step) {
      text = step.rewrite === 'trim' ? text.trim() : step.rewrite === 'lower' ? text.toLowerCase() : text.toUpperCase();
    } else if (!NAMED_CHECKS[step.check](text as never)) return REFUSED;
  }
  return text;
}

function readValue(plan: BodyPlan, value: unknown): unknown {
  switch (plan.kind) {
    case 'object': {
      if (!isObject(value)) return REFUSED;
      const out: Record<string, unknown> = {};
      for (const [key, field] of plan.fields) {
        if (!(key in value)) {
          // An absent optional field stays absent (nullable(optional) too); a default fills in.
          if (field.kind === 'optional' || (field.kind === 'nullable' && field.inner.kind === 'optional')) continue;
          if (field.kind !== 'default') return REFUSED;
          out[key] = field.value;
          continue;
        }
        const read = readValue(field, value[key]);
        if (read === REFUSED) return REFUSED;
        out[key] = read;
      }
      if (plan.unknownKeys === 'refuse') {
        for (const key in value) if (!plan.fields.some(([name]) => name === key)) return REFUSED;
      }
      return out;
    }
    case 'string':
      return readString(plan.steps, value);
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value) || (plan.integer && !Number.isSafeInteger(value))) return REFUSED;
      for (const { value: bound, above, inclusive } of plan.bounds) {
        if (above ? !(inclusive ? value >= bound : value > bound) : !(inclusive ? value <= bound : value < bound)) return REFUSED;
      }
      return value;
    case 'boolean':
      return typeof value === 'boolean' ? value : REFUSED;
    case 'oneOf':
      return plan.values.includes(value as Primitive) ? value : REFUSED;
    case 'optional':
      return value === undefined ? undefined : readValue(plan.inner, value);
    case 'nullable':
      return value === null ? null : readValue(plan.inner, value);
    case 'default':
      return value === undefined ? plan.value : readValue(plan.inner, value);
    case 'array': {
      if (!Array.isArray(value)) return REFUSED;
      if ((plan.min !== undefined && value.length < plan.min) || (plan.max !== undefined && value.length > plan.max)) return REFUSED;
      const out: unknown[] = [];
      for (const item of value) {
        const read = readValue(plan.item, item);
        if (read === REFUSED) return REFUSED;
        out.push(read);
      }
      return out;
    }
    case 'record': {
      if (!isObject(value) || Object.getPrototypeOf(value) !== Object.prototype) return REFUSED;
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(value)) {
        const name = readString(plan.key.steps, key);
        // zod drops a `__proto__` key silently; zod says what becomes of it.
        if (name === REFUSED || key === '__proto__' || name === '__proto__') return REFUSED;
        const read = readValue(plan.value, value[key]);
        if (read === REFUSED) return REFUSED;
        out[name] = read;
      }
      for (const check of plan.checks) if (!NAMED_CHECKS[check](out as never)) return REFUSED;
      return out;
    }
    case 'decimal': {
      if (!(typeof value === 'number' && Number.isFinite(value)) && !(typeof value === 'string' && isDecimalText(value))) return REFUSED;
      const result = decimalInputValue(value, plan.options);
      return 'value' in result ? result.value : REFUSED;
    }
  }
}

/** The body as zod would parse it with the schema the plan was compiled from, or undefined: then zod reads it and gives the error. */
export function readBody(plan: BodyPlan, body: unknown): Record<string, unknown> | undefined {
  const read = readValue(plan, body);
  return read === REFUSED ? undefined : (read as Record<string, unknown>);
}
