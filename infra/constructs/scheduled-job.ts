/**
 * A function run on an EventBridge schedule, inside the VPC like the API functions. Used for the
 * outbox sweeper (functions/platform/sweep-outbox.ts, every minute) and the recurring journal
 * entry runner (functions/platform/run-recurring.ts, daily), the vendor credit expiry job
 * (functions/platform/expire-vendor-credits.ts, hourly) and the quote expiry job
 * (functions/platform/expire-quotes.ts, hourly).
 *
 * Every job gets a dead-letter queue, used twice: as the function's dead-letter queue for its
 * asynchronous invocations (a run that failed after its retries) and as the rule target's dead-letter queue (an
 * event EventBridge could not deliver). It registers itself with the stack's Observability, which
 * alarms on the queue's depth and on the function's errors and throttles.
 */
import { Duration, NestedStack } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { AppFunction, type FunctionLogging, type FunctionNetwork, functionRole } from './app-function';
import type { DatabaseLogin } from './database';
import { registerScheduledJob } from './observability';

/** Long enough for an operator to look at a failed run after a weekend (SQS allows at most 14 days). */
const DEAD_LETTER_RETENTION = Duration.days(14);

export interface ScheduledJobProps {
  description: string;
  schedule: events.Schedule;
  code: lambda.Code;
  network: FunctionNetwork;
  logging: FunctionLogging;
  environment: Record<string, string>;
  timeout: Duration;
  /** Attempts after a failed run (Lambda's asynchronous retries); 0 when the next run makes up for it. */
  retryAttempts: number;
  /** What the job reads and publishes: the database login and the event bus. */
  databaseLogin: DatabaseLogin;
  eventBus: events.IEventBus;
}

export class ScheduledJob extends Construct {
  readonly function: lambda.Function;
  readonly rule: events.Rule;
  readonly deadLetterQueue: sqs.Queue;

  constructor(scope: Construct, id: string, props: ScheduledJobProps) {
    super(scope, id);
    const role = functionRole(this, 'Role', props.description);
    props.databaseLogin.grantConnect(role);
    props.eventBus.grantPutEventsTo(role);

    this.deadLetterQueue = new sqs.Queue(this, 'DeadLetters', {
      retentionPeriod: DEAD_LETTER_RETENTION,
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    this.function = new AppFunction(this, 'Job', {
      code: props.code,
      description: props.description,
      role,
      network: props.network,
      logging: props.logging,
      environment: props.environment,
      timeout: props.timeout,
      retryAttempts: props.retryAttempts,
      deadLetterQueue: this.deadLetterQueue,
    }).function;

    this.rule = new events.Rule(this, 'Schedule', {
      description: props.description,
      schedule: props.schedule,
      // EventBridge's own retries cover delivery (e.g. throttling), not failed runs.
      targets: [new targets.LambdaFunction(this.function, { retryAttempts: props.retryAttempts, deadLetterQueue: this.deadLetterQueue })],
    });

    registerScheduledJob(this, { name: id, function: this.function, deadLetterQueue: this.deadLetterQueue });
  }
}

/**
 * A nested stack of the API stack for scheduled jobs (the quote expiry job, functions/platform/expire-quotes.ts):
 * the API stack's own resources are mostly its REST API's resources and methods and sit close to
 * CloudFormation's 500-resource limit, where a job's nine resources (function, role, policy, log
 * group, queue, queue policy, rule, permission, invoke config) no longer fit.
 */
export class ScheduledJobsStack extends NestedStack {}
