/**
 * The task function of the cutover snapshot state machine (shared/migration/snapshot-state-machine.ts):
 * Step Functions invokes it for the stub branch's progress, for recording percent_progress, and for
 * the final status with its migration.snapshot_* event. The local server calls the same
 * runSnapshotTask in process.
 */
import { runSnapshotTask, type SnapshotTaskInput } from '../../shared/migration/snapshot-workflow';

export function handler(input: SnapshotTaskInput): Promise<unknown> {
  return runSnapshotTask(input);
}
