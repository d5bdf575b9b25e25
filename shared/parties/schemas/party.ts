/** Customer accounts and vendors: the parties sales and purchase documents point at. */
import * as z from 'zod/mini';
import { addressFields, id, metadata, optionalText, postalAddressOutput, timestamp } from '../../schemas/common';
import { livemode } from '../../schemas/livemode';
import { param } from '../../schemas/parameters';

function partyObject<T extends 'account' | 'vendor'>(object: T, schemaId: string) {
  return z
    .object({
      id: id(),
      object: z.literal(object),
      livemode: livemode(),
      entity_id: id(),
      name: z.string(),
      account_number: z
        .nullable(z.string())
        .check(
          z.describe(
            object === 'account' ? 'Your customer number; unique within the entity.' : 'Your account number with this vendor; unique within the entity.',
          ),
        ),
      email: z.nullable(z.string()),
      phone: z.nullable(z.string()),
      ...postalAddressOutput(),
      tax_exempt: z.boolean(),
      currency: z.string().check(z.describe('ISO 4217 code; defaults to USD.')),
      notes: z.nullable(z.string()),
      is_archived: z.boolean().check(z.describe('Archived parties stay on existing documents and can be restored; new documents should not use them.')),
      archived_at: z.nullable(timestamp()),
      metadata: z.record(z.string(), z.string()),
      external_source: z.nullable(z.string()),
      external_id: z.nullable(z.string()),
      migration_batch_id: z.nullable(id()).check(z.describe(`The import batch the ${object} was created in.`)),
      imported_at: z.nullable(timestamp()).check(z.describe('When it was created in an import batch.')),
      created_at: timestamp(),
      updated_at: timestamp(),
    })
    .register(z.globalRegistry, { id: schemaId });
}

export const Account = partyObject('account', 'Account');
export type Account = z.infer<typeof Account>;
export const Vendor = partyObject('vendor', 'Vendor');
export type Vendor = z.infer<typeof Vendor>;

const editable = () => ({
  account_number: optionalText(50),
  email: z.optional(z.nullable(z.email().check(z.maxLength(254)))),
  ...addressFields(),
  tax_exempt: z.optional(z.boolean()),
  currency: z.optional(z.string().check(z.regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as USD'))),
  notes: optionalText(5000),
  metadata: z.optional(metadata()),
  external_source: optionalText(100),
  external_id: optionalText(200),
});

export const PartyCreate = z.strictObject({
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(200)),
  ...editable(),
  migration_batch_id: z
    .optional(id())
    .check(z.describe("An open import batch of this entity: the record keeps it, imported_at is set, and external_source defaults to the batch's.")),
});
export type PartyCreate = z.infer<typeof PartyCreate>;
export const PartyUpdate = z.strictObject({ name: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(200))), ...editable() });
export type PartyUpdate = z.infer<typeof PartyUpdate>;
export type Party = Account | Vendor;

/** The filters of the account and vendor lists, which take the same ones. */
export const partyListFilters = (parties: 'accounts' | 'vendors') => ({
  is_archived: param.flag(`Only archived (true) or only current (false) ${parties}.`),
  email: param.text({ min: 1, max: 254 }, 'Exact email, case-insensitive.'),
  account_number: param.text({ min: 1, max: 50 }, 'Exact account_number, case-insensitive.'),
  external_id: param.text({ min: 1, max: 200 }, 'Exact external_id of a migrated row.'),
  q: param.text({ min: 1, max: 100, trim: true }, 'Name contains this text (case-insensitive).'),
});
