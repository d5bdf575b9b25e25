/** Field schemas every resource shares. */
import * as z from 'zod/mini';
import { livemode } from './livemode';

/**
 * An object id: a UUID in any case, lower-cased, so an id compares equal to the stored one
 * wherever it is used (a map key, a SQL text comparison, an echo). The one id schema.
 */
export const id = () => z.uuid().check(z.toLowerCase());
// Years 0001 to 9999, in UTC: ISO 8601 writes 1 BC as year 0000, which PostgreSQL refuses, and an
// offset or a fraction PostgreSQL rounds to the microsecond can carry 9999-12-31 into year 10000,
// which no ISO 8601 timestamp in a response can show. UTC offsets as they exist on Earth (-12:00
// to +14:00); PostgreSQL refuses those past 15:59. A 400 here instead of a 500 there. The offset
// rule is a pattern, so the OpenAPI document states it as the server applies it.
const EARLIEST = Date.parse('0001-01-01T00:00:00Z');
const LATEST = Date.parse('9999-12-31T23:59:59Z');
/** Z, or an offset from -12:00 to +14:00, ending the text. */
const UTC_OFFSET = /(?:Z|\+(?:(?:0\d|1[0-3]):[0-5]\d|14:00)|-(?:(?:0\d|1[01]):[0-5]\d|12:00))$/;
const RANGE_MESSAGE = 'Dates run from 0001-01-01 to 9999-12-31 (UTC)';
function inYearRange(value: string): boolean {
  const time = Date.parse(value);
  return time >= EARLIEST && time < LATEST;
}
function notYearZero(value: string): boolean {
  return !value.startsWith('0000');
}
function atMostFiftyKeys(value: Record<string, string>): boolean {
  return Object.keys(value).length <= 50;
}
export const timestamp = () =>
  z.iso
    .datetime({ offset: true })
    .check(z.regex(UTC_OFFSET, 'UTC offsets run from -12:00 to +14:00'), z.refine(inYearRange, RANGE_MESSAGE))
    .register(z.globalRegistry, { format: 'date-time', description: 'ISO 8601 date-time' });
export const isoDate = () => z.iso.date().check(z.refine(notYearZero, RANGE_MESSAGE), z.describe('ISO 8601 date'));

/**
 * Free-form key-value data for the integrator, as in Stripe: up to 50 keys of at most 40
 * characters, string values of at most 500 characters.
 */
export const metadata = () =>
  z
    .record(z.string().check(z.minLength(1), z.maxLength(40)), z.string().check(z.maxLength(500)))
    .check(
      z.refine(atMostFiftyKeys, { message: 'metadata holds at most 50 keys' }),
      z.describe('Up to 50 keys (40 characters each) with string values (500 characters each).'),
    );

/** Optional trimmed text with a length cap; null clears the field on update. */
export const optionalText = (max: number) => z.optional(z.nullable(z.string().check(z.trim(), z.maxLength(max))));

export const deletedObject = <T extends string>(object: T) => z.object({ id: id(), object: z.literal(object), livemode: livemode(), deleted: z.literal(true) });

/** A boolean query parameter: exactly `true` or `false`. */
export const queryBoolean = () =>
  z.pipe(
    z.enum(['true', 'false']),
    z.transform((value) => value === 'true'),
  );

/** A postal address and phone, as locations and parties carry them; null clears a field. */
export const addressFields = () => ({
  address1: optionalText(200),
  address2: optionalText(200),
  city: optionalText(100),
  state: optionalText(100),
  postal_code: optionalText(20),
  country: z.optional(z.nullable(z.string().check(z.regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code such as US')))),
  phone: optionalText(40),
});

/** The postal address as locations and parties return it (null where unset). */
export const postalAddressOutput = () => ({
  address1: z.nullable(z.string()),
  address2: z.nullable(z.string()),
  city: z.nullable(z.string()),
  state: z.nullable(z.string()),
  postal_code: z.nullable(z.string()),
  country: z.nullable(z.string()).check(z.describe('ISO 3166-1 alpha-2 code.')),
});
