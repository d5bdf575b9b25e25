import { param, pathParams } from '../../schemas/parameters';
import * as z from 'zod';
import { id, timestamp } from '../../schemas/common';
import { livemode } from '../../schemas/livemode';

export const CutoverFreeze = z
  .object({
    object: z.literal('cutover_freeze'),
    livemode: livemode(),
    entity_id: id(),
    frozen: z.boolean().describe('Whether writes of keys without migration:admin are refused (409 entity_frozen).'),
    freeze_token: id().nullable().describe('The token of the freeze in force: the snapshot request quotes it. Returned by freeze only; null once unfrozen.'),
    frozen_at: timestamp().nullable(),
    cutover_log_id: id().describe('The cutover log entry this freeze or unfreeze wrote.'),
  })
  .meta({ id: 'CutoverFreeze', description: "An entity's cutover freeze: while frozen, only keys with migration:admin may write." });
export type CutoverFreeze = z.infer<typeof CutoverFreeze>;

export const FreezeRequest = z.strictObject({
  description: z.string().trim().max(1000).optional().describe('Why the entity is frozen, for the cutover log.'),
});

export const CutoverLogEntry = z
  .object({
    id: id(),
    object: z.literal('cutover_log_entry'),
    livemode: livemode(),
    entity_id: id(),
    action: z.enum(['freeze', 'unfreeze', 'snapshot']),
    api_key_id: id().nullable().describe('The key that acted.'),
    request_id: z.string().nullable(),
    description: z.string().nullable(),
    created_at: timestamp(),
  })
  .meta({ id: 'CutoverLogEntry', description: 'One step of a cutover: a freeze, an unfreeze or a snapshot request, and who asked for it.' });
export type CutoverLogEntry = z.infer<typeof CutoverLogEntry>;

const SNAPSHOT_STATUSES = ['creating', 'available', 'failed'] as const;
export const SNAPSHOT_ENVS = ['dev', 'staging', 'prod'] as const;
export type SnapshotEnv = (typeof SNAPSHOT_ENVS)[number];

export const DbSnapshot = z
  .object({
    id: id().describe('The object id (pagination cursors use it).'),
    object: z.literal('db_snapshot'),
    livemode: livemode(),
    entity_id: id(),
    snapshot_id: z.string().describe('The database snapshot identifier; the status path takes it.'),
    db_instance_id: z.string().describe('The database cluster the snapshot is of (the whole cluster: every entity it serves).'),
    status: z.enum(SNAPSHOT_STATUSES),
    percent_progress: z.number().int().min(0).max(100),
    description: z.string(),
    started_at: timestamp(),
    estimated_completion_at: timestamp(),
    completed_at: timestamp().nullable().describe('When the snapshot became available or failed.'),
    failure_reason: z.string().nullable(),
    env: z.enum(SNAPSHOT_ENVS),
    dev_stub: z.boolean().describe('True when no real snapshot is taken (the dev environment, and test-mode keys): the workflow runs its stub branch.'),
    cutover_log_id: id(),
  })
  .meta({ id: 'DbSnapshot', description: 'A database snapshot taken at cutover, and its progress.' });
export type DbSnapshot = z.infer<typeof DbSnapshot>;

export const SnapshotRequest = z.strictObject({
  freeze_token: id().describe("The entity's current freeze token (from POST .../migration/cutover/freeze)."),
  description: z.string().trim().min(1).max(1000),
});
export type SnapshotRequest = z.infer<typeof SnapshotRequest>;

export const snapshotParams = pathParams({
  entity_id: param.id("The entity of the API key (for a test key, the entity's test-mode id)."),
  snapshot_id: param.text({ max: 255, pattern: { regex: /^[a-z][a-z0-9-]*$/ } }, 'The snapshot identifier (snapshot_id of the db_snapshot).'),
});
