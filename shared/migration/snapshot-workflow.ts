/**
 * The cutover snapshot workflow from the application's side: the execution input, how an
 * execution is started (Step Functions on AWS; a local runner in process, configured at start-up),
 * and the task states the task function serves (progress, the final status and its event).
 */
import { withTransaction } from '../db/database';
import { createEventRecorder } from '../events/outbox';
import { publishCommitted } from '../events/publisher';
import { logger } from '../powertools';
import type { SnapshotTaskAction } from './snapshot-state-machine';
import { finishSnapshot, recordProgress } from './snapshots';

/** What an execution starts with; the state machine adds `progress` and, on failure, `error`. */
export interface SnapshotExecution {
  /** The db_snapshots row. */
  snapshot_row_id: string;
  entity_id: string;
  livemode: boolean;
  snapshot_id: string;
  db_cluster_id: string;
  dev_stub: boolean;
  poll_seconds: number;
  progress?: { status: string; percent_progress: number };
  error?: { Error?: string; Cause?: string };
}

export interface SnapshotTaskInput {
  action: SnapshotTaskAction;
  execution: SnapshotExecution;
}

export interface SnapshotWorkflowRunner {
  start(execution: SnapshotExecution): Promise<void>;
}

class StepFunctionsRunner implements SnapshotWorkflowRunner {
  constructor(private readonly stateMachineArn: string) {}

  async start(execution: SnapshotExecution): Promise<void> {
    // Loaded on first use: only the snapshot route starts executions.
    const { SFNClient, StartExecutionCommand } = await import('@aws-sdk/client-sfn');
    // The execution is named after the snapshot: a second start of the same snapshot is refused by Step Functions.
    await new SFNClient({}).send(
      new StartExecutionCommand({ stateMachineArn: this.stateMachineArn, name: execution.snapshot_id, input: JSON.stringify(execution) }),
    );
  }
}

let runner: SnapshotWorkflowRunner | undefined;

/** Set once at start-up outside AWS (the local server, tests); on AWS CUTOVER_STATE_MACHINE_ARN names the state machine. */
export function configureSnapshotRunner(next: SnapshotWorkflowRunner | undefined): void {
  runner = next;
}

export function snapshotRunner(): SnapshotWorkflowRunner {
  if (runner) return runner;
  const arn = process.env.CUTOVER_STATE_MACHINE_ARN;
  if (!arn) throw new Error('no cutover snapshot runner: set CUTOVER_STATE_MACHINE_ARN or configure a local runner');
  return (runner = new StepFunctionsRunner(arn));
}

/** How far the stub branch moves per poll: two polls from 0 to available. */
const STUB_STEP = 50;

/** Marks a snapshot failed and records migration.snapshot_failed (once). */
export async function failSnapshot(execution: SnapshotExecution, reason: string): Promise<void> {
  await finish(execution, { status: 'failed', reason });
}

async function finish(execution: SnapshotExecution, outcome: { status: 'available' } | { status: 'failed'; reason: string }): Promise<void> {
  const entityId = execution.entity_id;
  const events = await withTransaction({ role: 'app_user', entityId }, async (db) => {
    const snapshot = await finishSnapshot(db, entityId, execution.snapshot_row_id, outcome);
    if (!snapshot) return [];
    const recorder = createEventRecorder(db, { entityId, mode: execution.livemode ? 'live' : 'test', requestId: null });
    await recorder.record(outcome.status === 'available' ? 'migration.snapshot_taken' : 'migration.snapshot_failed', snapshot);
    return recorder.recorded;
  });
  await publishCommitted(entityId, events);
}

function failureReason(execution: SnapshotExecution): string {
  if (execution.error) {
    const cause = execution.error.Cause ?? '';
    return `${execution.error.Error ?? 'Error'}${cause ? `: ${cause}` : ''}`;
  }
  return `The snapshot ended in status ${execution.progress?.status ?? 'unknown'}.`;
}

/** The task function: one action per task state of the definition. */
export async function runSnapshotTask(input: SnapshotTaskInput): Promise<unknown> {
  const { action, execution } = input;
  switch (action) {
    case 'describe_stub': {
      // The dev branch: no real snapshot; progress advances a step per poll, as RDS would report it.
      const percent = Math.min(100, (execution.progress?.percent_progress ?? 0) + STUB_STEP);
      return { status: percent >= 100 ? 'available' : 'creating', percent_progress: percent };
    }
    case 'record_progress':
      await withTransaction({ role: 'app_user', entityId: execution.entity_id }, (db) =>
        recordProgress(db, execution.entity_id, execution.snapshot_row_id, Number(execution.progress?.percent_progress ?? 0)),
      );
      return {};
    case 'record_available':
      await finish(execution, { status: 'available' });
      return {};
    case 'record_failed':
      logger.warn('cutover snapshot failed', { snapshotId: execution.snapshot_id, error: execution.error?.Error });
      await failSnapshot(execution, failureReason(execution));
      return {};
  }
}
