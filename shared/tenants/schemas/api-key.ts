import * as z from 'zod/mini';
import { ALL_SCOPES } from '../../auth/scopes';
import { id, metadata, optionalText, timestamp } from '../../schemas/common';
import { livemode } from '../../schemas/livemode';

export const User = z
  .object({
    id: id(),
    object: z.literal('user'),
    livemode: livemode(),
    entity_id: id(),
    email: z.string(),
    name: z.string(),
    permissions: z.array(z.string()),
    is_active: z.boolean(),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .register(z.globalRegistry, { id: 'User' });
export type User = z.infer<typeof User>;

export const ApiKey = z
  .object({
    id: id(),
    object: z.literal('api_key'),
    livemode: livemode(),
    entity_id: id(),
    name: z.nullable(z.string()),
    mode: z.enum(['live', 'test']),
    redacted_key: z.string().check(z.describe('The key with its secret hidden but for the last four characters.')),
    scopes: z.array(z.string()),
    created_by_user_id: id().check(z.describe('The user this key acts for; permissions and segregation-of-duties checks use this user.')),
    created_by_user: z.optional(z.nullable(User)).check(z.describe('Present when expanded with expand[]=created_by_user.')),
    status: z.enum(['active', 'expired', 'revoked']),
    expires_at: z.nullable(timestamp()),
    revoked_at: z.nullable(timestamp()),
    last_used_at: z.nullable(timestamp()).check(z.describe('Updated at most once an hour.')),
    rolled_from_key_id: z.nullable(id()),
    metadata: z.record(z.string(), z.string()),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .register(z.globalRegistry, { id: 'ApiKey' });
export type ApiKey = z.infer<typeof ApiKey>;

export const ApiKeyWithSecret = z
  .extend(ApiKey, {
    secret: z.string().check(z.describe('The full key. Shown once, in this response only; only its hash is stored.')),
  })
  .register(z.globalRegistry, { id: 'ApiKeyWithSecret' });

const scopeList = () =>
  z.array(z.enum(ALL_SCOPES as [string, ...string[]])).check(
    z.minLength(1),
    z.maxLength(ALL_SCOPES.length),
    z.refine((scopes) => new Set(scopes).size === scopes.length, { message: 'scopes must not repeat' }),
  );

export const ApiKeyCreate = z.strictObject({
  name: optionalText(100),
  mode: z
    .optional(z.enum(['live', 'test']))
    .check(z.describe("Defaults to the calling key's mode, the only mode it may create: a live key creates live keys, a test key test keys.")),
  scopes: scopeList().check(z.describe('Scopes of the new key; each must be held by the calling key.')),
  expires_at: z.optional(timestamp()).check(z.describe('When the key stops working; omit for no expiry.')),
  metadata: z.optional(metadata()),
});
export type ApiKeyCreate = z.infer<typeof ApiKeyCreate>;

export const ApiKeyUpdate = z.strictObject({ name: optionalText(100), metadata: z.optional(metadata()) });
export type ApiKeyUpdate = z.infer<typeof ApiKeyUpdate>;

export const ApiKeyRoll = z.strictObject({
  expires_in_seconds: z
    .optional(z.number().check(z.int(), z.gte(0), z.lte(7 * 24 * 3600)))
    .check(z.describe('How long the old key keeps working (0 to 604800 seconds); default 0, it stops at once.')),
});
