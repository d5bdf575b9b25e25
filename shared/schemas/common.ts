/** Field schemas every resource shares. */
import { z } from 'zod';
import { livemode } from './livemode';

/**
 * An object id: a UUID in any case, lower-cased, so an id compares equal to the stored one
 * wherever it is used (a map key, a SQL text comparison, an echo). The one id schema.
 */
export const id = () => z.uuid().toLowerCase();
// Years 0001 to 9999, in UTC: ISO 8601 writes 1 BC as year 0000, which PostgreSQL refuses, and an
// offset or a fraction PostgreSQL rounds to the microsecond can carry 9999-12-31 into year 10000,
// which no ISO 8601 timestamp in a response can show. UTC offsets as they exist on Earth (-12:00
// to +14:00); PostgreSQL refuses those past 15:59. A 400 here instead of a 500 there.
const EARLIEST = Date.parse('0001-01-01T00:00:00Z');
const LATEST = Date.parse('9999-12-31T23:59:59Z');
const RANGE_MESSAGE = 'Dates run from 0001-01-01 to 9999-12-31 (UTC)';
function inYearRange(value: string): boolean {
  const time = Date.parse(value);
  return time >= EARLIEST && time < LATEST;
}
function realOffset(value: string): boolean {
  const offset = /([+-])(\d{2}):?(\d{2})$/.exec(value);
  if (!offset) return true; // Z
  const minutes = (offset[1] === '-' ? -1 : 1) * (Number(offset[2]) * 60 + Number(offset[3]));
  return minutes >= -12 * 60 && minutes <= 14 * 60;
}
function notYearZero(value: string): boolean {
  return !value.startsWith('0000');
}
function atMostFiftyKeys(value: Record<string, string>): boolean {
  return Object.keys(value).length <= 50;
}
/**
 * The refinements of these shared schemas, by name: the body plan of a route (shared/http/body-plan.ts)
 * names the ones its schema applies, and its reader calls the very same functions.
 */
export const NAMED_CHECKS: Readonly<Record<string, (value: never) => boolean>> = { inYearRange, realOffset, notYearZero, atMostFiftyKeys };
export const timestamp = () =>
  z.iso
    .datetime({ offset: true })
    .refine(realOffset, 'UTC offsets run from -12:00 to +14:00')
    .refine(inYearRange, RANGE_MESSAGE)
    .describe('ISO 8601 date-time');
export const isoDate = () => z.iso.date().refine(notYearZero, RANGE_MESSAGE).describe('ISO 8601 date');

/**
 * Free-form key-value data for the integrator, as in Stripe: up to 50 keys of at most 40
 * characters, string values of at most 500 characters.
 */
export const metadata = () =>
  z
    .record(z.string().min(1).max(40), z.string().max(500))
    .refine(atMostFiftyKeys, { message: 'metadata holds at most 50 keys' })
    .describe('Up to 50 keys (40 characters each) with string values (500 characters each).');

/** Optional trimmed text with a length cap; null clears the field on update. */
export const optionalText = (max: number) => z.string().trim().max(max).nullable().optional();

// zod's UUID pattern, which `id()` applies: RFC 9562 versions 1 to 8 with their variant, the nil and the max UUID.
const ID_PATTERN =
  /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/;
// zod's ISO 8601 patterns, which `isoDate()` and `timestamp()` apply: a calendar date (leap years
// included), and a date-time with seconds, an optional fraction and Z or a ±hh:mm offset.
const DATE_SOURCE =
  '(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|(?:02)-(?:0[1-9]|1\\d|2[0-8])))';
export const DATE_PATTERN = new RegExp(`^${DATE_SOURCE}$`);
export const TIMESTAMP_PATTERN = new RegExp(`^${DATE_SOURCE}T(?:(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?(?:Z|([+-](?:[01]\\d|2[0-3]):[0-5]\\d)))$`);

/** What `isoDate()` parses a value into, without zod: the value, or undefined when it would refuse it. */
export const readIsoDate = (value: string): string | undefined => (DATE_PATTERN.test(value) && !value.startsWith('0000') ? value : undefined);

/** What `timestamp()` parses a value into, without zod: the value, or undefined when it would refuse it. */
export const readTimestamp = (value: string): string | undefined =>
  TIMESTAMP_PATTERN.test(value) && realOffset(value) && inYearRange(value) ? value : undefined;

/** What `id()` parses a value into, without zod: the lower-cased id, or undefined when `id()` would refuse it. */
export const readId = (value: unknown): string | undefined => (typeof value === 'string' && ID_PATTERN.test(value) ? value.toLowerCase() : undefined);

export const deletedObject = <T extends string>(object: T) => z.object({ id: id(), object: z.literal(object), livemode: livemode(), deleted: z.literal(true) });

/** A boolean query parameter: exactly `true` or `false`. */
export const queryBoolean = () => z.enum(['true', 'false']).transform((value) => value === 'true');

/** A postal address and phone, as locations and parties carry them; null clears a field. A function, so lazy schemas build it on first use. */
export const addressFields = () => ({
  address1: optionalText(200),
  address2: optionalText(200),
  city: optionalText(100),
  state: optionalText(100),
  postal_code: optionalText(20),
  country: z
    .string()
    .regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code such as US')
    .nullable()
    .optional(),
  phone: optionalText(40),
});

/** The postal address as locations and parties return it (null where unset). */
export const postalAddressOutput = () => ({
  address1: z.string().nullable(),
  address2: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  postal_code: z.string().nullable(),
  country: z.string().nullable().describe('ISO 3166-1 alpha-2 code.'),
});
