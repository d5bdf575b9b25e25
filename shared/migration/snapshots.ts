/** Cutover snapshot rows: what the snapshot request writes and the workflow's task states update. */
import type { Db } from '../db/database';
import { keysetPage, type Page, type PageRequest } from '../db/keyset';
import { ApiError } from '../errors';
import type { DbSnapshot, SnapshotEnv } from './schemas/cutover';

const COLUMNS = `s.id, 'db_snapshot' AS object, s.entity_id, s.snapshot_id, s.db_instance_id, s.status, s.percent_progress, s.description, s.started_at,
  s.estimated_completion_at, s.completed_at, s.failure_reason, s.env, s.dev_stub, s.cutover_log_id`;

export interface NewSnapshot {
  id: string;
  snapshotId: string;
  dbInstanceId: string;
  description: string;
  env: SnapshotEnv;
  devStub: boolean;
  cutoverLogId: string;
  freezeToken: string;
  estimatedSeconds: number;
}

export async function insertSnapshot(db: Db, entityId: string, input: NewSnapshot): Promise<DbSnapshot> {
  return db.one<DbSnapshot>(
    `INSERT INTO db_snapshots AS s (id, entity_id, snapshot_id, db_instance_id, description, env, dev_stub, cutover_log_id, freeze_token, estimated_completion_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, now() + make_interval(secs => $10)) RETURNING ${COLUMNS}`,
    [
      input.id,
      entityId,
      input.snapshotId,
      input.dbInstanceId,
      input.description,
      input.env,
      input.devStub,
      input.cutoverLogId,
      input.freezeToken,
      input.estimatedSeconds,
    ],
  );
}

export async function getSnapshot(db: Db, entityId: string, snapshotId: string): Promise<DbSnapshot> {
  const row = await db.maybeOne<DbSnapshot>(`SELECT ${COLUMNS} FROM db_snapshots s WHERE s.entity_id = $1 AND s.snapshot_id = $2`, [entityId, snapshotId]);
  if (!row) throw new ApiError('snapshot_not_found', { param: 'snapshot_id' });
  return row;
}

export function listSnapshots(db: Db, entityId: string, page: PageRequest): Promise<Page<DbSnapshot>> {
  return keysetPage<DbSnapshot>(db, { table: 'db_snapshots', alias: 's', select: COLUMNS, where: ['s.entity_id = $1'], params: [entityId] }, page);
}

/** Progress of a snapshot still creating; a finished one is left as it is. */
export async function recordProgress(db: Db, entityId: string, id: string, percent: number): Promise<void> {
  await db.query(
    `UPDATE db_snapshots SET percent_progress = GREATEST(percent_progress, LEAST(100, GREATEST(0, $3::int))), updated_at = now()
      WHERE entity_id = $1 AND id = $2 AND status = 'creating'`,
    [entityId, id, Math.round(percent)],
  );
}

/**
 * Moves a creating snapshot to its final status; undefined when it had already finished (a task
 * state retried after its first attempt committed), so the event is recorded once.
 */
export function finishSnapshot(db: Db, entityId: string, id: string, outcome: { status: 'available' } | { status: 'failed'; reason: string }) {
  return db.maybeOne<DbSnapshot>(
    `UPDATE db_snapshots AS s SET status = $3, percent_progress = CASE WHEN $3 = 'available' THEN 100 ELSE percent_progress END,
            failure_reason = $4, completed_at = now(), updated_at = now()
      WHERE s.entity_id = $1 AND s.id = $2 AND s.status = 'creating' RETURNING ${COLUMNS}`,
    [entityId, id, outcome.status, outcome.status === 'failed' ? outcome.reason.slice(0, 1000) : null],
  );
}
