/** Field schemas every resource shares. */
import { z } from 'zod';

export const id = () => z.uuid();
export const timestamp = () => z.iso.datetime({ offset: true }).describe('ISO 8601 date-time');
export const isoDate = () => z.iso.date().describe('ISO 8601 date');

/**
 * Free-form key-value data for the integrator, as in Stripe: up to 50 keys of at most 40
 * characters, string values of at most 500 characters.
 */
export const metadata = () =>
  z
    .record(z.string().min(1).max(40), z.string().max(500))
    .refine((value) => Object.keys(value).length <= 50, { message: 'metadata holds at most 50 keys' })
    .describe('Up to 50 keys (40 characters each) with string values (500 characters each).');

/** Optional trimmed text with a length cap; null clears the field on update. */
export const optionalText = (max: number) => z.string().trim().max(max).nullable().optional();

export const idParams = z.object({ id: z.uuid().describe('The object id.') });

export const entityScopedParams = z.object({ entity_id: z.uuid().describe('The entity of the API key; any other value is a 404.') });

export const deletedObject = <T extends string>(object: T) => z.object({ id: z.uuid(), object: z.literal(object), deleted: z.literal(true) });

/** A boolean query parameter: exactly `true` or `false`. */
export const queryBoolean = () => z.enum(['true', 'false']).transform((value) => value === 'true');

/** `/v1/entities/{entity_id}/<resource>/{id}` */
export const entityResourceParams = entityScopedParams.extend({ id: z.uuid().describe('The object id.') });

/** A postal address and phone, as locations and parties carry them; null clears a field. */
export const addressFields = {
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
};
