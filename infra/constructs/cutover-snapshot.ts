/**
 * The cutover snapshot workflow: the Step Functions state machine built from the repository's one
 * definition (shared/migration/snapshot-state-machine.ts), and its task function (progress, final
 * status, the migration.snapshot_* events through the outbox).
 *
 * Least privilege: the state machine may create snapshots of this stage's cluster only under the
 * `cutover-` prefix the API gives them, describe those, tag them at creation, and invoke its task
 * function; the task function reads the application login and publishes to the bus. Route
 * functions that start executions get states:StartExecution on this state machine only.
 */
import { ArnFormat, Duration, Stack } from 'aws-cdk-lib';
import type * as events from 'aws-cdk-lib/aws-events';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { CUTOVER_SNAPSHOT_PREFIX, cutoverSnapshotDefinition, TASK_FUNCTION_PLACEHOLDER } from '../../shared/migration/snapshot-state-machine';
import { AppFunction, type FunctionLogging, type FunctionNetwork, functionRole } from './app-function';
import type { DatabaseLogin } from './database';
import { acknowledge, removalPolicyOf, retentionOf } from './conventions';

export interface CutoverSnapshotProps {
  code: lambda.Code;
  network: FunctionNetwork;
  logging: FunctionLogging;
  environment: Record<string, string>;
  databaseLogin: DatabaseLogin;
  eventBus: events.IEventBus;
  /** The Aurora cluster identifier (a plain string): the one cluster snapshots may be taken of. */
  clusterIdentifier: string;
}

export class CutoverSnapshotWorkflow extends Construct {
  readonly stateMachine: sfn.StateMachine;
  readonly taskFunction: lambda.Function;

  constructor(scope: Construct, id: string, props: CutoverSnapshotProps) {
    super(scope, id);
    const stack = Stack.of(this);

    const taskRole = functionRole(this, 'TaskRole', 'Cutover snapshot task function');
    props.databaseLogin.grantConnect(taskRole);
    props.eventBus.grantPutEventsTo(taskRole);
    this.taskFunction = new AppFunction(this, 'Task', {
      code: props.code,
      description: 'Cutover snapshot workflow tasks: progress, final status and the migration.snapshot_* events',
      role: taskRole,
      network: props.network,
      logging: props.logging,
      environment: props.environment,
      timeout: Duration.seconds(30),
    }).function;

    const logGroup = new logs.LogGroup(this, 'Logs', {
      retention: retentionOf(props.logging.retentionDays),
      removalPolicy: removalPolicyOf(props.logging.removal),
    });
    this.stateMachine = new sfn.StateMachine(this, 'StateMachine', {
      comment: 'Cutover snapshot of the database',
      definitionBody: sfn.DefinitionBody.fromString(JSON.stringify(cutoverSnapshotDefinition())),
      definitionSubstitutions: { [TASK_FUNCTION_PLACEHOLDER]: this.taskFunction.functionArn },
      stateMachineType: sfn.StateMachineType.STANDARD,
      tracingEnabled: true,
      // Execution data stays out of the logs (entity ids only, but nothing is needed there).
      logs: { destination: logGroup, level: sfn.LogLevel.ALL, includeExecutionData: false },
    });
    // The state machine invokes the task function's unqualified ARN only: no version suffix (grantInvoke would add `:*`).
    this.stateMachine.addToRolePolicy(
      new iam.PolicyStatement({ sid: 'InvokeTaskFunction', actions: ['lambda:InvokeFunction'], resources: [this.taskFunction.functionArn] }),
    );

    const arn = (resource: string, resourceName: string) =>
      stack.formatArn({ service: 'rds', resource, resourceName, arnFormat: ArnFormat.COLON_RESOURCE_NAME });
    const cluster = arn('cluster', props.clusterIdentifier);
    const snapshots = arn('cluster-snapshot', `${CUTOVER_SNAPSHOT_PREFIX}*`);
    this.stateMachine.addToRolePolicy(
      new iam.PolicyStatement({
        sid: 'CreateCutoverSnapshot',
        actions: ['rds:CreateDBClusterSnapshot', 'rds:AddTagsToResource'],
        resources: [cluster, snapshots],
      }),
    );
    this.stateMachine.addToRolePolicy(
      new iam.PolicyStatement({ sid: 'DescribeCutoverSnapshot', actions: ['rds:DescribeDBClusterSnapshots'], resources: [cluster, snapshots] }),
    );

    const role = this.stateMachine.role;
    acknowledge(
      role,
      'AwsSolutions-IAM5[Resource::*]',
      'Added by Step Functions for the tracing and logging configured above: X-Ray PutTraceSegments/PutTelemetryRecords/GetSampling* have no resource type, and the CloudWatch Logs vended-delivery actions (CreateLogDelivery, DescribeLogGroups, PutResourcePolicy, ...) support no resource-level permissions. Every data action of this role (Lambda, RDS) names its resources.',
    );
    acknowledge(
      role,
      `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:rds:<AWS::Region>:<AWS::AccountId>:cluster-snapshot:${CUTOVER_SNAPSHOT_PREFIX}*]`,
      'Snapshot identifiers are made per request (shared/migration/start-snapshot.ts: cutover-<entity code>-<time>-<random>), so no ARN exists before the state machine creates it; the grant is bounded to the cutover- prefix in this account and region, and to creating, tagging and describing.',
    );
  }

  /** Lets a function start executions (and nothing else) of this state machine. */
  grantStart(grantee: iam.IGrantable): void {
    this.stateMachine.grantStartExecution(grantee);
  }
}
