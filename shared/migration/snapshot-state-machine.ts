/**
 * The cutover snapshot workflow: ONE Amazon States Language definition. CDK deploys it (the task
 * function's ARN substituted for ${SnapshotTaskFunctionArn}), and the local server runs the very
 * same definition with aws-local-stepfunctions, its task states served by local handlers.
 *
 *   CreateOrStub ─┬─ CreateSnapshot (RDS createDBClusterSnapshot) ──┐
 *                 └─ CreateStubSnapshot (dev: no real snapshot) ─────┤
 *   ┌────────────────────────────────────────────────────────────────┘
 *   └► WaitForProgress ► DescribeOrStub ─┬─ DescribeSnapshot (RDS describeDBClusterSnapshots)
 *                                        └─ DescribeStubSnapshot (task function)
 *      ► RecordProgress (percent_progress) ► IsAvailable ─┬─ available ► RecordAvailable (event) ► Done
 *                                                         ├─ creating ► WaitForProgress
 *                                                         └─ anything else ► RecordFailed
 *   Any error of the RDS calls or of recording progress ► RecordFailed (status failed, event) ► SnapshotFailed
 */

/** The placeholder for the task function's ARN (CDK definitionSubstitutions; the local runner substitutes a local ARN). */
export const TASK_FUNCTION_PLACEHOLDER = 'SnapshotTaskFunctionArn';
const TASK = '${' + TASK_FUNCTION_PLACEHOLDER + '}';

/** The prefix of every cutover snapshot identifier; the state machine's IAM policy is bounded to it. */
export const CUTOVER_SNAPSHOT_PREFIX = 'cutover-';

/** The actions of the task function, one per task state it serves. */
export type SnapshotTaskAction = 'describe_stub' | 'record_progress' | 'record_available' | 'record_failed';

/** The SDK integrations the real branch calls (and the IAM actions they need). */
export const RDS_CREATE_SNAPSHOT = 'arn:aws:states:::aws-sdk:rds:createDBClusterSnapshot';
export const RDS_DESCRIBE_SNAPSHOTS = 'arn:aws:states:::aws-sdk:rds:describeDBClusterSnapshots';

/** A whole cutover may not run longer than this; past it the execution times out. */
const EXECUTION_TIMEOUT_SECONDS = 4 * 60 * 60;

const catchToFailed = [{ ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'RecordFailed' }];
/** Transient failures of the task function (a cold start, the database restarting) are retried. */
const taskRetry = [
  {
    ErrorEquals: ['Lambda.ServiceException', 'Lambda.AWSLambdaException', 'Lambda.SdkClientException', 'Lambda.TooManyRequestsException'],
    IntervalSeconds: 2,
    MaxAttempts: 4,
    BackoffRate: 2,
  },
  { ErrorEquals: ['States.TaskFailed'], IntervalSeconds: 3, MaxAttempts: 3, BackoffRate: 2 },
];
const rdsRetry = [{ ErrorEquals: ['Rds.ThrottlingException', 'Rds.RdsException'], IntervalSeconds: 5, MaxAttempts: 3, BackoffRate: 2 }];

const task = (action: SnapshotTaskAction, next: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  Type: 'Task',
  Resource: TASK,
  Parameters: { action, 'execution.$': '$' },
  Retry: taskRetry,
  ...extra,
  ...next,
});

export function cutoverSnapshotDefinition(): Record<string, unknown> {
  return {
    Comment: 'Cutover snapshot of the database (real on AWS outside dev, a stub branch in dev and locally), its progress, and the migration.snapshot_* events.',
    StartAt: 'CreateOrStub',
    TimeoutSeconds: EXECUTION_TIMEOUT_SECONDS,
    States: {
      CreateOrStub: {
        Type: 'Choice',
        Choices: [{ Variable: '$.dev_stub', BooleanEquals: true, Next: 'CreateStubSnapshot' }],
        Default: 'CreateSnapshot',
      },
      CreateSnapshot: {
        Type: 'Task',
        Resource: RDS_CREATE_SNAPSHOT,
        Parameters: {
          'DbClusterIdentifier.$': '$.db_cluster_id',
          'DbClusterSnapshotIdentifier.$': '$.snapshot_id',
          Tags: [
            { Key: 'bizops:purpose', Value: 'cutover' },
            { Key: 'bizops:entity_id', 'Value.$': '$.entity_id' },
          ],
        },
        ResultPath: null,
        Retry: rdsRetry,
        Catch: catchToFailed,
        Next: 'WaitForProgress',
      },
      CreateStubSnapshot: {
        Type: 'Pass',
        Result: { status: 'creating', percent_progress: 0 },
        ResultPath: '$.progress',
        Next: 'WaitForProgress',
      },
      WaitForProgress: { Type: 'Wait', SecondsPath: '$.poll_seconds', Next: 'DescribeOrStub' },
      DescribeOrStub: {
        Type: 'Choice',
        Choices: [{ Variable: '$.dev_stub', BooleanEquals: true, Next: 'DescribeStubSnapshot' }],
        Default: 'DescribeSnapshot',
      },
      DescribeSnapshot: {
        Type: 'Task',
        Resource: RDS_DESCRIBE_SNAPSHOTS,
        Parameters: { 'DbClusterSnapshotIdentifier.$': '$.snapshot_id' },
        ResultSelector: { 'status.$': '$.DbClusterSnapshots[0].Status', 'percent_progress.$': '$.DbClusterSnapshots[0].PercentProgress' },
        ResultPath: '$.progress',
        Retry: rdsRetry,
        Catch: catchToFailed,
        Next: 'RecordProgress',
      },
      DescribeStubSnapshot: task('describe_stub', { Next: 'RecordProgress' }, { ResultPath: '$.progress', Catch: catchToFailed }),
      RecordProgress: task('record_progress', { Next: 'IsAvailable' }, { ResultPath: null, Catch: catchToFailed }),
      IsAvailable: {
        Type: 'Choice',
        Choices: [
          { Variable: '$.progress.status', StringEquals: 'available', Next: 'RecordAvailable' },
          { Variable: '$.progress.status', StringEquals: 'creating', Next: 'WaitForProgress' },
        ],
        Default: 'RecordFailed',
      },
      RecordAvailable: task('record_available', { Next: 'Done' }, { ResultPath: null }),
      Done: { Type: 'Succeed' },
      RecordFailed: task('record_failed', { Next: 'SnapshotFailed' }, { ResultPath: null }),
      SnapshotFailed: { Type: 'Fail', Error: 'SnapshotFailed', Cause: 'The cutover snapshot failed; the db_snapshot says why (failure_reason).' },
    },
  };
}

/** The definition as JSON with the task function's ARN filled in (the local runner, the validator test). */
export function cutoverSnapshotDefinitionFor(taskFunctionArn: string): Record<string, unknown> {
  return JSON.parse(JSON.stringify(cutoverSnapshotDefinition()).replaceAll(TASK, taskFunctionArn)) as Record<string, unknown>;
}
