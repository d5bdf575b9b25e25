/**
 * Webhook delivery on AWS. The outbox publishes every committed event to the domain bus as
 * before; a rule sends each one (source `bizops.api`) to the dispatcher function, which queues it
 * for the subscribed endpoints in PostgreSQL and sends it at once (functions/platform/
 * dispatch-webhooks.ts). Retries live in the same deliveries table: a scheduled retry function
 * claims the due ones every minute with FOR UPDATE SKIP LOCKED (functions/platform/
 * retry-webhooks.ts). Both run in the private subnets with egress (NAT), since endpoints are
 * integrators' URLs on the internet.
 *
 * What can fail outside the code: the rule cannot invoke the dispatcher (throttling, a missing
 * permission), or an invocation fails after Lambda's own retries. Both land on one dead-letter
 * queue, encrypted and TLS-only, kept 14 days; the event itself stays in the outbox and the feed,
 * and the retry function picks up any delivery a failed invocation had queued. The stage's
 * observability watches both functions and both dead-letter queues.
 *
 * It lives in a nested stack of its own (`WebhooksStack`): its ~20 resources are one concern, and
 * the API stack keeps its room under CloudFormation's 500 resources for the REST API's methods.
 */
import { Duration, NestedStack, type NestedStackProps } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as destinations from 'aws-cdk-lib/aws-lambda-destinations';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { EVENT_SOURCE } from '../../shared/events/publisher';
import { AppFunction, type FunctionLogging, type FunctionNetwork, functionRole } from './app-function';
import type { DatabaseLogin } from './database';
import { acknowledge } from './conventions';
import { ScheduledJob } from './scheduled-job';

export interface WebhookDeliveryProps {
  eventBus: events.IEventBus;
  dispatcherCode: lambda.Code;
  retryCode: lambda.Code;
  /** The private subnets with egress. */
  network: FunctionNetwork;
  logging: FunctionLogging;
  /** The runtime environment of the shared code, STAGE_NAME included (the URL rules are stricter on prod). */
  environment: Record<string, string>;
  /** The database login; the functions read nothing else. */
  databaseLogin: DatabaseLogin;
}

/** One attempt's HTTP timeout is 15 s; a dispatcher invocation sends one event to its endpoints concurrently. */
const DISPATCHER_TIMEOUT = Duration.seconds(60);
/** The retry function stops claiming 25 s before its end (one attempt's timeout and a margin). */
const RETRY_TIMEOUT = Duration.seconds(90);

export class WebhookDelivery extends Construct {
  readonly dispatcher: lambda.Function;
  readonly retry: ScheduledJob;
  readonly rule: events.Rule;
  readonly deadLetterQueue: sqs.Queue;

  constructor(scope: Construct, id: string, props: WebhookDeliveryProps) {
    super(scope, id);

    this.deadLetterQueue = new sqs.Queue(this, 'DeadLetters', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    acknowledge(
      this.deadLetterQueue,
      'AwsSolutions-SQS3',
      'This queue is itself the dead-letter queue: of the dispatcher rule target and of the dispatcher function asynchronous invocations. cdk-nag recognises only queues named in another queue redrive policy as dead-letter queues.',
    );

    const role = functionRole(this, 'DispatcherRole', 'Webhook dispatcher');
    props.databaseLogin.grantConnect(role);
    // An endpoint answering 410 is disabled with a webhook_endpoint.disabled event, published after commit.
    props.eventBus.grantPutEventsTo(role);
    this.dispatcher = new AppFunction(this, 'Dispatcher', {
      code: props.dispatcherCode,
      description: 'Webhook dispatcher: queues each domain event for its subscribed endpoints and sends it at once',
      role,
      network: props.network,
      logging: props.logging,
      environment: props.environment,
      timeout: DISPATCHER_TIMEOUT,
    }).function;
    // Failed invocations are retried twice by Lambda (queueing is idempotent per endpoint and event), then dead-lettered.
    this.dispatcher.configureAsyncInvoke({
      retryAttempts: 2,
      maxEventAge: Duration.hours(6),
      onFailure: new destinations.SqsDestination(this.deadLetterQueue),
    });

    this.rule = new events.Rule(this, 'Rule', {
      description: 'Every domain event to the webhook dispatcher',
      eventBus: props.eventBus,
      eventPattern: { source: [EVENT_SOURCE] },
      targets: [
        new targets.LambdaFunction(this.dispatcher, {
          retryAttempts: 8,
          maxEventAge: Duration.hours(2),
          deadLetterQueue: this.deadLetterQueue,
        }),
      ],
    });

    this.retry = new ScheduledJob(this, 'WebhookRetry', {
      description: 'Webhook retries: claims due deliveries with FOR UPDATE SKIP LOCKED and sends them (every minute)',
      schedule: events.Schedule.rate(Duration.minutes(1)),
      code: props.retryCode,
      network: props.network,
      logging: props.logging,
      environment: props.environment,
      timeout: RETRY_TIMEOUT,
      // A failed run is the next minute's work: its deliveries stay due, or come back when their lease runs out.
      retryAttempts: 0,
      databaseLogin: props.databaseLogin,
      eventBus: props.eventBus,
    });
  }
}

/** The webhook delivery resources in a nested stack of the API stack. */
export class WebhooksStack extends NestedStack {
  readonly delivery: WebhookDelivery;

  constructor(scope: Construct, id: string, props: WebhookDeliveryProps & NestedStackProps) {
    super(scope, id, props);
    this.delivery = new WebhookDelivery(this, 'Webhooks', props);
  }
}
