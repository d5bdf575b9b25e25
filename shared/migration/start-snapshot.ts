/**
 * Starts a cutover snapshot: checks the freeze, writes the cutover log entry and the snapshot row
 * (status creating), and once that has committed starts the workflow, which takes it from there.
 *
 * Where it runs decides what it does: CUTOVER_ENV names the environment (dev, staging, prod; dev
 * when unset, as locally). In dev, and for test-mode keys anywhere, the workflow takes its stub
 * branch (dev_stub): no real snapshot, the same states, done in seconds.
 */
import { randomBytes } from 'node:crypto';
import type { KeyMode } from '../auth/api-key-format';
import type { Db } from '../db/database';
import { ApiError } from '../errors';
import { newId } from '../ids';
import type { Log } from '../powertools';
import { appendCutoverLog, currentFreeze } from './cutover-freeze';
import { SNAPSHOT_ENVS, type DbSnapshot, type SnapshotEnv, type SnapshotRequest } from './schemas/cutover';
import { CUTOVER_SNAPSHOT_PREFIX } from './snapshot-state-machine';
import { failSnapshot, snapshotRunner, type SnapshotExecution } from './snapshot-workflow';
import { insertSnapshot } from './snapshots';

export interface SnapshotRequestContext {
  db: Db;
  entityId: string;
  entityCode: string;
  mode: KeyMode;
  keyId: string;
  requestId: string;
  log: Log;
  afterCommit(task: () => Promise<void>): void;
}

/** Seconds between progress polls, and the expected duration, of a real snapshot and of the stub. */
const REAL = { pollSeconds: 30, estimatedSeconds: 15 * 60 };
const STUB = { pollSeconds: 2, estimatedSeconds: 10 };

function snapshotEnv(env: NodeJS.ProcessEnv = process.env): SnapshotEnv {
  const value = env.CUTOVER_ENV || 'dev';
  if (!(SNAPSHOT_ENVS as readonly string[]).includes(value)) throw new Error(`CUTOVER_ENV must be one of ${SNAPSHOT_ENVS.join(', ')}`);
  return value as SnapshotEnv;
}

/** An RDS snapshot identifier: a letter first, then letters, digits and single hyphens; the entity code helps an operator in the console. */
function newSnapshotIdentifier(entityCode: string): string {
  return `${CUTOVER_SNAPSHOT_PREFIX}${entityCode}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
}

export async function startSnapshot(ctx: SnapshotRequestContext, request: SnapshotRequest): Promise<DbSnapshot> {
  const freeze = await currentFreeze(ctx.db, ctx.entityId);
  if (!freeze) {
    throw new ApiError('entity_not_frozen', {
      hint: 'A cutover snapshot is taken while the entity is frozen, so it holds a settled state: POST .../migration/cutover/freeze first and quote its freeze_token.',
    });
  }
  if (freeze.freeze_token !== request.freeze_token) throw new ApiError('freeze_token_mismatch', { param: 'freeze_token' });

  const env = snapshotEnv();
  const devStub = env === 'dev' || ctx.mode === 'test';
  const timing = devStub ? STUB : REAL;
  const cutoverLogId = await appendCutoverLog(ctx.db, ctx.entityId, ctx, {
    action: 'snapshot',
    freezeToken: freeze.freeze_token,
    description: request.description,
  });
  const snapshot = await insertSnapshot(ctx.db, ctx.entityId, {
    id: newId(),
    snapshotId: newSnapshotIdentifier(ctx.entityCode),
    dbInstanceId: process.env.DB_CLUSTER_IDENTIFIER || 'local-dev',
    description: request.description,
    env,
    devStub,
    cutoverLogId,
    freezeToken: freeze.freeze_token,
    estimatedSeconds: timing.estimatedSeconds,
  });
  const execution: SnapshotExecution = {
    snapshot_row_id: snapshot.id,
    entity_id: ctx.entityId,
    livemode: ctx.mode === 'live',
    snapshot_id: snapshot.snapshot_id,
    db_cluster_id: snapshot.db_instance_id,
    dev_stub: devStub,
    poll_seconds: timing.pollSeconds,
  };
  ctx.afterCommit(async () => {
    try {
      await snapshotRunner().start(execution);
    } catch (error) {
      // The 202 is sent already; the snapshot's status says what happened.
      ctx.log.error('cutover snapshot workflow not started', { snapshotId: execution.snapshot_id, error });
      await failSnapshot(execution, 'The snapshot workflow could not be started.');
    }
  });
  return snapshot;
}
