import { param, pathParams } from '../../schemas/parameters';
import * as z from 'zod/mini';
import { id, timestamp } from '../../schemas/common';
import { livemode } from '../../schemas/livemode';

export const CutoverFreeze = z
  .object({
    object: z.literal('cutover_freeze'),
    livemode: livemode(),
    entity_id: id(),
    frozen: z.boolean().check(z.describe('Whether writes of keys without migration:admin are refused (409 entity_frozen).')),
    freeze_token: z
      .nullable(id())
      .check(z.describe('The token of the freeze in force: the snapshot request quotes it. Returned by freeze only; null once unfrozen.')),
    frozen_at: z.nullable(timestamp()),
    cutover_log_id: id().check(z.describe('The cutover log entry this freeze or unfreeze wrote.')),
  })
  .register(z.globalRegistry, { id: 'CutoverFreeze', description: "An entity's cutover freeze: while frozen, only keys with migration:admin may write." });
export type CutoverFreeze = z.infer<typeof CutoverFreeze>;

export const FreezeRequest = z.strictObject({
  description: z.optional(z.string().check(z.trim(), z.maxLength(1000))).check(z.describe('Why the entity is frozen, for the cutover log.')),
});

export const CutoverLogEntry = z
  .object({
    id: id(),
    object: z.literal('cutover_log_entry'),
    livemode: livemode(),
    entity_id: id(),
    action: z.enum(['freeze', 'unfreeze', 'snapshot']),
    api_key_id: z.nullable(id()).check(z.describe('The key that acted.')),
    request_id: z.nullable(z.string()),
    description: z.nullable(z.string()),
    created_at: timestamp(),
  })
  .register(z.globalRegistry, {
    id: 'CutoverLogEntry',
    description: 'One step of a cutover: a freeze, an unfreeze or a snapshot request, and who asked for it.',
  });
export type CutoverLogEntry = z.infer<typeof CutoverLogEntry>;

const SNAPSHOT_STATUSES = ['creating', 'available', 'failed'] as const;
export const SNAPSHOT_ENVS = ['dev', 'staging', 'prod'] as const;
export type SnapshotEnv = (typeof SNAPSHOT_ENVS)[number];

export const DbSnapshot = z
  .object({
    id: id().check(z.describe('The object id (pagination cursors use it).')),
    object: z.literal('db_snapshot'),
    livemode: livemode(),
    entity_id: id(),
    snapshot_id: z.string().check(z.describe('The database snapshot identifier; the status path takes it.')),
    db_instance_id: z.string().check(z.describe('The database cluster the snapshot is of (the whole cluster: every entity it serves).')),
    status: z.enum(SNAPSHOT_STATUSES),
    percent_progress: z.number().check(z.int(), z.gte(0), z.lte(100)),
    description: z.string(),
    started_at: timestamp(),
    estimated_completion_at: timestamp(),
    completed_at: z.nullable(timestamp()).check(z.describe('When the snapshot became available or failed.')),
    failure_reason: z.nullable(z.string()),
    env: z.enum(SNAPSHOT_ENVS),
    dev_stub: z
      .boolean()
      .check(z.describe('True when no real snapshot is taken (the dev environment, and test-mode keys): the workflow runs its stub branch.')),
    cutover_log_id: id(),
  })
  .register(z.globalRegistry, { id: 'DbSnapshot', description: 'A database snapshot taken at cutover, and its progress.' });
export type DbSnapshot = z.infer<typeof DbSnapshot>;

export const SnapshotRequest = z.strictObject({
  freeze_token: id().check(z.describe("The entity's current freeze token (from POST .../migration/cutover/freeze).")),
  description: z.string().check(z.trim(), z.minLength(1), z.maxLength(1000)),
});
export type SnapshotRequest = z.infer<typeof SnapshotRequest>;

export const snapshotParams = pathParams({
  entity_id: param.id("The entity of the API key (for a test key, the entity's test-mode id)."),
  snapshot_id: param.text({ max: 255, pattern: { regex: /^[a-z][a-z0-9-]*$/ } }, 'The snapshot identifier (snapshot_id of the db_snapshot).'),
});
