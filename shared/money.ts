/**
 * Decimal arithmetic for money and quantities. Never float math: values travel as strings from
 * PostgreSQL `numeric`, as JSON numbers on the wire (converted through their decimal text), and
 * are computed with decimal.js-light (the decimal.js subset we need, at a third of its size in
 * every function bundle).
 *
 * Rounding is half away from zero (1.005 → 1.01, -1.005 → -1.01) to the scale the operation
 * states: 2 for money amounts, 4 where the spec says so (vendor credits, quantities, unit costs).
 */
import Decimal from 'decimal.js-light';
import * as z from 'zod/mini';

// 40 significant digits; ties round away from zero; toString() never switches to exponent
// notation within the magnitudes money and quantities take (so it is the exact plain decimal).
const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP, toExpNeg: -30, toExpPos: 40 });
export type Amount = InstanceType<typeof D>;
export type AmountLike = Amount | string | number;

export const MONEY_SCALE = 2;
export const QUANTITY_SCALE = 4;
/** Prices and costs per unit (list, sell and vendor prices, unit costs and rates). */
export const PRICE_SCALE = 4;

/** A decimal from a database string, a JSON number (through its shortest decimal text) or a decimal. */
export function amount(value: AmountLike): Amount {
  if (typeof value === 'number' && !Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
  return new D(typeof value === 'number' ? String(value) : value);
}

export const ZERO = amount(0);

export function sum(values: Iterable<AmountLike>): Amount {
  let total = ZERO;
  for (const value of values) total = total.plus(amount(value));
  return total;
}

/** Rounds half away from zero to `scale` decimals. */
export function round(value: AmountLike, scale = MONEY_SCALE): Amount {
  return amount(value).toDecimalPlaces(scale, Decimal.ROUND_HALF_UP);
}

/** Largest integer not above the value (kits buildable from stock, say). */
export function floor(value: AmountLike): Amount {
  return amount(value).toDecimalPlaces(0, Decimal.ROUND_FLOOR);
}

/** Smallest integer not below the value (order multiples, say). */
export function ceil(value: AmountLike): Amount {
  return amount(value).toDecimalPlaces(0, Decimal.ROUND_CEIL);
}

/** The JSON number for a money value, rounded to its scale (the spec puts money on the wire as numbers). */
/** toJsonNumber for a nullable column: null stays null. */
export const toNullableJsonNumber = (value: AmountLike | null, scale = MONEY_SCALE): number | null => (value === null ? null : toJsonNumber(value, scale));

export function toJsonNumber(value: AmountLike, scale = MONEY_SCALE): number {
  // Fast path (a 500-line order renders thousands): a plain non-negative decimal string already
  // within the scale needs no rounding, and the number of its text is the number of the decimal.
  if (typeof value === 'string') {
    const match = PLAIN_DECIMAL.exec(value);
    if (match && (match[1]?.length ?? 0) <= scale) return Number(value);
  }
  return round(value, scale).toNumber();
}
const PLAIN_DECIMAL = /^\d{1,30}(?:\.(\d{1,30}))?$/;

/** The fixed-scale string for a value that travels as a string (vendor credits: 4 decimals). */
export function toFixedString(value: AmountLike, scale: number): string {
  const plain = round(value, scale).toString();
  if (scale === 0) return plain;
  const [whole, fraction = ''] = plain.split('.');
  return `${whole}.${fraction.padEnd(scale, '0')}`;
}

/**
 * The text of a decimal a request may carry: at most 20 digits before and after the point, no
 * exponent, no sign but minus. Longer or exponent forms are refused before any arithmetic, so a
 * request can never make the decimal library throw or spend time on a megabyte of digits.
 */
const DECIMAL_TEXT = /^-?\d{1,20}(?:\.\d{1,20})?$/;

/** The largest amount or quantity a request may carry. */
const DEFAULT_MAX = 999_999_999_999;

export interface DecimalInputOptions {
  scale?: number;
  min?: number;
  max?: number;
  exclusiveMin?: boolean;
  /** Zero refused (a signed change, say). */
  nonZero?: boolean;
}

/**
 * What a decimal request field holds once it passed its type (a JSON number, or text matching
 * DECIMAL_TEXT): its decimal text, or the message that refuses it.
 */
function decimalInputValue(value: number | string, options: DecimalInputOptions): { value: string } | { refused: string } {
  const { scale = MONEY_SCALE, min, max = DEFAULT_MAX, exclusiveMin = false, nonZero = false } = options;
  if (typeof value === 'number' && !Number.isFinite(value)) return { refused: 'must be a finite number' };
  // A number's shortest text can use an exponent (1e-7, 1e+21); decimal.js reads both exactly.
  const decimal = amount(value);
  if (decimal.decimalPlaces() > scale) return { refused: `must have at most ${scale} decimal places` };
  if (min !== undefined && (exclusiveMin ? decimal.lte(min) : decimal.lt(min)))
    return { refused: `must be ${exclusiveMin ? 'greater than' : 'at least'} ${min}` };
  if (decimal.gt(max)) return { refused: `must be at most ${max}` };
  if (nonZero && decimal.isZero()) return { refused: 'must not be zero' };
  return { value: decimal.toString() };
}

/** The extension keyword that states a number's decimal places in the OpenAPI document. */
export const DECIMAL_PLACES_KEYWORD = 'x-decimal-places';

/**
 * The rules of a decimal input as the OpenAPI document states them, from the same options the
 * server applies. The number form carries its bounds (minimum or exclusiveMinimum, maximum) and
 * its decimal places as `x-decimal-places`: JSON Schema's `multipleOf: 0.01` is float division
 * in Ajv and Prism and refuses valid amounts such as 0.07 (docs/decisions.md, "Decimal places in
 * the OpenAPI document"). The text form carries a pattern that states the sign, the decimal
 * places and, for amounts greater than 0 or never 0, that the value is not zero.
 */
function decimalInputJsonSchema(options: DecimalInputOptions): { number: Record<string, unknown>; text: Record<string, unknown> } {
  const { scale = MONEY_SCALE, min, max = DEFAULT_MAX, exclusiveMin = false, nonZero = false } = options;
  const number: Record<string, unknown> = { maximum: max, [DECIMAL_PLACES_KEYWORD]: scale };
  if (min !== undefined) number[exclusiveMin ? 'exclusiveMinimum' : 'minimum'] = min;
  if (nonZero) number.not = { const: 0 };
  // A minus only where negatives are allowed, else before a zero ("-0.00" is 0).
  const sign = min === undefined || min < 0 ? '-?' : '(?:-(?=0+(?:\\.0+)?$))?';
  const notZero = nonZero || (min !== undefined && (min > 0 || (min === 0 && exclusiveMin))) ? '(?!-?0+(?:\\.0+)?$)' : '';
  // Up to 20 decimals as DECIMAL_TEXT, of which only zeros past the scale (12.5000 is 12.5).
  const fraction = `(?:\\.(?=\\d{1,20}$)${scale > 0 ? `\\d{1,${scale}}0*` : '0+'})?`;
  return { number, text: { pattern: `^${notZero}${sign}\\d{1,20}${fraction}$` } };
}

/**
 * A request field holding money or a quantity: a JSON number (or numeric string) with at most
 * `scale` decimals, within bounds; parsed to its decimal text so no float arithmetic follows.
 * Every check runs in one step that stops at the first failure (a value that is not a number is
 * never handed to the decimal library), and no message repeats the value.
 */
export function decimalInput(options: DecimalInputOptions = {}) {
  const { number, text } = decimalInputJsonSchema(options);
  return z.pipe(
    z.union([
      z.number().register(z.globalRegistry, number),
      z.string().check(z.regex(DECIMAL_TEXT, 'must be a decimal number')).register(z.globalRegistry, text),
    ]),
    z.transform((value, ctx) => {
      const result = decimalInputValue(value, options);
      if ('value' in result) return result.value;
      ctx.issues.push({ code: 'custom', message: result.refused, input: undefined });
      return z.NEVER;
    }),
  );
}
