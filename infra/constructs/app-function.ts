/**
 * The one way this app defines a Lambda function: Node.js 22 on arm64, X-Ray tracing, JSON logs to
 * its own log group with retention, inside the isolated subnets. Roles are created separately and
 * shared (one per area stack of routes) to keep IAM resources off the stack budget.
 */
import { Duration } from 'aws-cdk-lib';
import type * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { Removal } from '../config/stages';
import { acknowledge, removalPolicyOf, retentionOf } from './conventions';

/** Where functions run and which security group they share. */
export interface FunctionNetwork {
  vpc: ec2.IVpc;
  subnets: ec2.SubnetSelection;
  securityGroup: ec2.ISecurityGroup;
}

export interface FunctionLogging {
  retentionDays: number;
  removal: Removal;
}

const FUNCTION_RUNTIME = lambda.Runtime.NODEJS_22_X;
/** API Gateway gives up on an integration after 29 seconds; a longer function timeout buys nothing. */
const API_FUNCTION_TIMEOUT = Duration.seconds(29);

export interface AppFunctionProps {
  code: lambda.Code;
  description: string;
  role: iam.IRole;
  network: FunctionNetwork;
  logging: FunctionLogging;
  environment: Record<string, string>;
  timeout?: Duration;
  memorySize?: number;
  /** Retries of failed asynchronous invocations (scheduled jobs); Lambda's default of 2 when omitted. */
  retryAttempts?: number;
  /**
   * A fixed name, only for a function something outside the stack calls by name (the admin
   * function the CLI invokes); everything else stays unnamed (see below).
   */
  functionName?: string;
  /** Where a failed asynchronous invocation goes after its retries (scheduled jobs). */
  deadLetterQueue?: sqs.IQueue;
}

export class AppFunction extends Construct {
  readonly function: lambda.Function;
  readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: AppFunctionProps) {
    super(scope, id);
    // No physical names: a function that moves to another nested stack is created there before
    // the old one is deleted, which a fixed name would turn into a conflict.
    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: retentionOf(props.logging.retentionDays),
      removalPolicy: removalPolicyOf(props.logging.removal),
    });
    this.function = new lambda.Function(this, 'Function', {
      ...(props.functionName !== undefined && { functionName: props.functionName }),
      code: props.code,
      handler: 'index.handler',
      runtime: FUNCTION_RUNTIME,
      architecture: lambda.Architecture.ARM_64,
      description: props.description,
      role: props.role,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? API_FUNCTION_TIMEOUT,
      tracing: lambda.Tracing.ACTIVE,
      logGroup: this.logGroup,
      loggingFormat: lambda.LoggingFormat.JSON,
      environment: props.environment,
      vpc: props.network.vpc,
      vpcSubnets: props.network.subnets,
      securityGroups: [props.network.securityGroup],
      ...(props.retryAttempts !== undefined && { retryAttempts: props.retryAttempts }),
      ...(props.deadLetterQueue !== undefined && { deadLetterQueue: props.deadLetterQueue }),
    });
    this.logGroup.grantWrite(props.role);
    acknowledge(
      this.function,
      'AwsSolutions-L1',
      'The product owner pins the Node.js 22 runtime (nodejs22.x) for every function; moving to a newer runtime is a deliberate, tested upgrade rather than a side effect of a deploy.',
    );
  }
}

/**
 * An execution role for functions in the VPC: ENI management (what AWSLambdaVPCAccessExecutionRole
 * grants, without its logs:* on every log group) plus whatever the caller grants. Log-group
 * write access is added per function by AppFunction.
 */
export function functionRole(scope: Construct, id: string, description: string): iam.Role {
  const role = new iam.Role(scope, id, { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'), description });
  role.addToPrincipalPolicy(
    new iam.PolicyStatement({
      sid: 'VpcNetworkInterfaces',
      actions: [
        'ec2:CreateNetworkInterface',
        'ec2:DescribeNetworkInterfaces',
        'ec2:DescribeSubnets',
        'ec2:DeleteNetworkInterface',
        'ec2:AssignPrivateIpAddresses',
        'ec2:UnassignPrivateIpAddresses',
      ],
      resources: ['*'],
    }),
  );
  acknowledge(
    role,
    'AwsSolutions-IAM5[Resource::*]',
    'Only two statements use Resource "*": the Lambda VPC ENI actions (ec2:Describe* support no resource-level permissions and Lambda creates the ENIs before their ARNs exist) and X-Ray PutTraceSegments/PutTelemetryRecords, which have no resource type. All data access is scoped to specific ARNs.',
  );
  return role;
}
