/**
 * What an operator watches on a stage: one SNS topic every alarm notifies (an email subscription
 * from stage config), the alarms, and one CloudWatch dashboard with the same signals.
 *
 * Alarms: API 5xx rate and p99 latency; errors and throttles of the platform functions (the
 * authorizer and every scheduled job; route functions answer their own failures as 5xx
 * envelopes, so the 5xx alarm covers them) and Lambda throttles across the account and region;
 * the depth of every dead-letter queue; Aurora capacity and connections; RDS Proxy availability
 * and authentication failures; the outbox lag (the age of the oldest unpublished event, which the
 * sweeper publishes as a custom metric).
 *
 * Scheduled jobs register here by themselves (ScheduledJob calls watchJob through
 * `registerScheduledJob`), whichever of the two is created first, so a new job gets its
 * dead-letter queue alarm and dashboard widgets without anyone remembering to add them.
 */
import { Duration, NestedStack, type NestedStackProps, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct, type IConstruct } from 'constructs';
import { METRIC_NAMES, METRICS_NAMESPACE } from '../../shared/metric-names';

const PERIOD = Duration.minutes(5);

/** Below this many requests in 5 minutes the 5xx rate reads 0: one failed request of three is not an outage. */
const MIN_REQUESTS_FOR_5XX_RATE = 20;

/**
 * Aurora PostgreSQL sets max_connections from the instance memory (LEAST(DBInstanceClassMemory /
 * 9531392, 5000)); Serverless v2 sizes it for the maximum capacity, at 2 GiB an ACU: about 225
 * connections an ACU.
 */
export function auroraMaxConnections(maxCapacityAcu: number): number {
  return Math.min(Math.floor((maxCapacityAcu * 2 * 1024 ** 3) / 9531392), 5000);
}

export interface ObservabilityProps {
  stageName: string;
  alarmEmail?: string;
  api: { restApiName: string; stageName: string };
  database: { clusterIdentifier: string; proxyName: string; maxCapacityAcu: number };
  thresholds: { api5xxRatePercent: number; apiLatencyP99Ms: number; outboxLagSeconds: number };
  /** The service dimension the application's EMF metrics carry (POWERTOOLS_SERVICE_NAME). */
  metricsService: string;
}

/** What a scheduled job shows the operator. */
export interface WatchedJob {
  /** Short name for alarm names and widget titles, e.g. `OutboxSweeper`. */
  name: string;
  function: lambda.IFunction;
  deadLetterQueue: sqs.IQueue;
}

const pendingJobs = new WeakMap<Stack, WatchedJob[]>();
const instances = new WeakMap<Stack, Observability>();

/** The top-level stack of a construct: jobs and the Observability meet there, whichever nested stacks hold them. */
function rootStack(scope: IConstruct): Stack {
  let stack = Stack.of(scope);
  while (stack.nestedStackParent) stack = stack.nestedStackParent;
  return stack;
}

/** Called by every ScheduledJob: watched now if the stack has its Observability, else when it is created. */
export function registerScheduledJob(scope: IConstruct, job: WatchedJob): void {
  // A job in a nested stack (the webhooks' own) is watched by its top-level stack's Observability.
  const stack = rootStack(scope);
  const observability = instances.get(stack);
  if (observability) observability.watchJob(job);
  else pendingJobs.set(stack, [...(pendingJobs.get(stack) ?? []), job]);
}

export class Observability extends Construct {
  readonly topic: sns.Topic;
  readonly dashboard: cloudwatch.Dashboard;
  readonly alarms: cloudwatch.Alarm[] = [];
  private readonly watchedJobs = new Set<string>();
  private readonly props: ObservabilityProps;
  private readonly action: actions.SnsAction;

  constructor(scope: Construct, id: string, props: ObservabilityProps) {
    super(scope, id);
    this.props = props;
    const stack = rootStack(this);
    if (instances.has(stack)) throw new Error('one Observability per stack');

    // Encrypted with a key of our own: CloudWatch cannot publish to a topic under the AWS managed SNS key.
    const key = new kms.Key(this, 'TopicKey', { description: `BizOps ${props.stageName} alarm topic`, enableKeyRotation: true });
    key.grant(new iam.ServicePrincipal('cloudwatch.amazonaws.com'), 'kms:Decrypt', 'kms:GenerateDataKey*');
    this.topic = new sns.Topic(this, 'AlarmTopic', {
      topicName: `bizops-${props.stageName}-alarms`,
      displayName: `BizOps ${props.stageName} alarms`,
      masterKey: key,
      enforceSSL: true,
    });
    if (props.alarmEmail) this.topic.addSubscription(new subscriptions.EmailSubscription(props.alarmEmail));
    this.action = new actions.SnsAction(this.topic);

    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', { dashboardName: `bizops-${props.stageName}`, defaultInterval: Duration.hours(6) });
    this.watchApi();
    this.watchDatabase();
    this.watchOutbox();
    this.watchApplicationMetrics();

    instances.set(stack, this);
    for (const job of pendingJobs.get(stack) ?? []) this.watchJob(job);
    pendingJobs.delete(stack);
  }

  /** An alarm that notifies the topic when it fires and when it recovers. */
  private alarm(id: string, props: cloudwatch.AlarmProps): cloudwatch.Alarm {
    const alarm = new cloudwatch.Alarm(this, id, { ...props, alarmName: `bizops-${this.props.stageName}-${props.alarmName ?? id}` });
    alarm.addAlarmAction(this.action);
    alarm.addOkAction(this.action);
    this.alarms.push(alarm);
    return alarm;
  }

  private apiMetric(metricName: string, statistic: string): cloudwatch.Metric {
    const { restApiName, stageName } = this.props.api;
    return new cloudwatch.Metric({
      namespace: 'AWS/ApiGateway',
      metricName,
      dimensionsMap: { ApiName: restApiName, Stage: stageName },
      statistic,
      period: PERIOD,
    });
  }

  private appMetric(metricName: string, statistic: string, extra: Record<string, string> = {}): cloudwatch.Metric {
    return new cloudwatch.Metric({
      namespace: METRICS_NAMESPACE,
      metricName,
      dimensionsMap: { service: this.props.metricsService, stage: this.props.stageName, ...extra },
      statistic,
      period: PERIOD,
    });
  }

  private watchApi(): void {
    const requests = this.apiMetric('Count', 'Sum');
    const errors5xx = this.apiMetric('5XXError', 'Sum');
    const rate = new cloudwatch.MathExpression({
      expression: `IF(requests >= ${MIN_REQUESTS_FOR_5XX_RATE}, 100 * errors / requests, 0)`,
      usingMetrics: { requests, errors: errors5xx },
      label: 'API 5xx rate (%)',
      period: PERIOD,
    });
    this.alarm('Api5xxRate', {
      alarmDescription: `More than ${this.props.thresholds.api5xxRatePercent}% of API requests answered 5xx (two 5-minute periods of three).`,
      metric: rate,
      threshold: this.props.thresholds.api5xxRatePercent,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 3,
      datapointsToAlarm: 2,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    const p99 = this.apiMetric('Latency', 'p99');
    this.alarm('ApiLatencyP99', {
      alarmDescription: `API p99 latency above ${this.props.thresholds.apiLatencyP99Ms} ms (two 5-minute periods of three).`,
      metric: p99,
      threshold: this.props.thresholds.apiLatencyP99Ms,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 3,
      datapointsToAlarm: 2,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    // Lambda throttles anywhere in the account and region: concurrency is an account-wide pool.
    const throttles = new cloudwatch.Metric({ namespace: 'AWS/Lambda', metricName: 'Throttles', statistic: 'Sum', period: PERIOD });
    this.alarm('LambdaThrottles', {
      alarmDescription: 'Lambda throttled invocations in this account and region (concurrency exhausted: API requests fail with 5xx, jobs are delayed).',
      metric: throttles,
      threshold: 0,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    this.dashboard.addWidgets(
      new cloudwatch.TextWidget({
        markdown: `# BizOps ${this.props.stageName}\nAlarms notify SNS topic \`bizops-${this.props.stageName}-alarms\`.`,
        width: 24,
        height: 2,
      }),
      new cloudwatch.GraphWidget({ title: 'API requests and errors', left: [requests, errors5xx, this.apiMetric('4XXError', 'Sum')], width: 8 }),
      new cloudwatch.GraphWidget({
        title: 'API 5xx rate (%)',
        left: [rate],
        leftAnnotations: [{ value: this.props.thresholds.api5xxRatePercent, label: 'alarm' }],
        width: 8,
      }),
      new cloudwatch.GraphWidget({
        title: 'API latency (ms)',
        left: [this.apiMetric('Latency', 'p50'), p99, this.apiMetric('IntegrationLatency', 'p99')],
        leftAnnotations: [{ value: this.props.thresholds.apiLatencyP99Ms, label: 'p99 alarm' }],
        width: 8,
      }),
      new cloudwatch.GraphWidget({ title: 'Lambda throttles (account, region)', left: [throttles], width: 8 }),
    );
  }

  /** Errors and throttles of one platform function (the authorizer, each scheduled job). */
  watchFunction(name: string, fn: lambda.IFunction): void {
    const errors = fn.metricErrors({ period: PERIOD, statistic: 'Sum' });
    const throttles = fn.metricThrottles({ period: PERIOD, statistic: 'Sum' });
    this.alarm(`${name}Errors`, {
      alarmDescription: `${name}: invocations failed.`,
      metric: errors,
      threshold: 0,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    this.alarm(`${name}Throttles`, {
      alarmDescription: `${name}: invocations throttled.`,
      metric: throttles,
      threshold: 0,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    this.dashboard.addWidgets(
      new cloudwatch.GraphWidget({
        title: `${name}: invocations, errors, throttles`,
        left: [fn.metricInvocations({ period: PERIOD }), errors, throttles],
        width: 8,
      }),
    );
  }

  /** A scheduled job: its function, and its dead-letter queue (any message is a run that failed or was never delivered). */
  watchJob(job: WatchedJob): void {
    // Registered twice (by the construct that owns it and by its stack) is still watched once.
    if (this.watchedJobs.has(job.name)) return;
    this.watchedJobs.add(job.name);
    this.watchFunction(job.name, job.function);
    this.watchQueue(job.name, job.deadLetterQueue);
  }

  /** A dead-letter queue or failure destination: any message in it is work that failed for good. */
  watchQueue(name: string, deadLetterQueue: sqs.IQueue): void {
    const depth = deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: 'Maximum' });
    this.alarm(`${name}DeadLetters`, {
      alarmDescription: `${name}: failed or undelivered invocations are waiting in its dead-letter queue.`,
      metric: depth,
      threshold: 0,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    this.dashboard.addWidgets(new cloudwatch.GraphWidget({ title: `${name}: dead-letter queue depth`, left: [depth], width: 8 }));
  }

  private watchDatabase(): void {
    const { clusterIdentifier, proxyName, maxCapacityAcu } = this.props.database;
    const cluster = (metricName: string, statistic: string) =>
      new cloudwatch.Metric({ namespace: 'AWS/RDS', metricName, dimensionsMap: { DBClusterIdentifier: clusterIdentifier }, statistic, period: PERIOD });
    const capacity = cluster('ServerlessDatabaseCapacity', 'Maximum');
    const capacityThreshold = Math.max(maxCapacityAcu * 0.9, 0.5);
    this.alarm('AuroraCapacity', {
      alarmDescription: `Aurora at 90% or more of its maximum capacity (${maxCapacityAcu} ACU) for 15 minutes: raise database.maxCapacity or find the load.`,
      metric: capacity,
      threshold: capacityThreshold,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 3,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    const connections = cluster('DatabaseConnections', 'Maximum');
    const connectionThreshold = Math.floor(auroraMaxConnections(maxCapacityAcu) * 0.8);
    this.alarm('AuroraConnections', {
      alarmDescription: `Aurora connections above ${connectionThreshold} (80% of max_connections at ${maxCapacityAcu} ACU).`,
      metric: connections,
      threshold: connectionThreshold,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 2,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    const proxy = (metricName: string, statistic: string, extra: Record<string, string> = {}) =>
      new cloudwatch.Metric({ namespace: 'AWS/RDS', metricName, dimensionsMap: { ProxyName: proxyName, ...extra }, statistic, period: PERIOD });
    const authFailures = proxy('ClientConnectionsSetupFailedAuth', 'Sum');
    this.alarm('ProxyAuthFailures', {
      alarmDescription: 'RDS Proxy refused client logins (a wrong or rotated secret: functions cannot reach the database).',
      metric: authFailures,
      threshold: 0,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    const availability = proxy('AvailabilityPercentage', 'Minimum', { TargetGroup: 'default', TargetRole: 'READ_WRITE' });
    this.alarm('ProxyAvailability', {
      alarmDescription: 'RDS Proxy could not reach the Aurora writer for part of the period.',
      metric: availability,
      threshold: 100,
      comparisonOperator: cloudwatch.ComparisonOperator.LESS_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    this.dashboard.addWidgets(
      new cloudwatch.GraphWidget({
        title: 'Aurora capacity (ACU)',
        left: [capacity],
        leftAnnotations: [{ value: capacityThreshold, label: 'alarm' }],
        width: 8,
      }),
      new cloudwatch.GraphWidget({ title: 'Aurora connections', left: [connections, proxy('ClientConnections', 'Maximum')], width: 8 }),
      new cloudwatch.GraphWidget({ title: 'RDS Proxy: auth failures, availability', left: [authFailures], right: [availability], width: 8 }),
    );
  }

  private watchOutbox(): void {
    const lag = this.appMetric(METRIC_NAMES.outboxLag, 'Maximum');
    this.alarm('OutboxLag', {
      alarmDescription: `The oldest unpublished outbox event is older than ${this.props.thresholds.outboxLagSeconds} s, or the sweeper stopped reporting: events and webhooks are late.`,
      metric: lag,
      threshold: this.props.thresholds.outboxLagSeconds,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 2,
      // The sweeper reports every minute, lag 0 included: silence means it is not running.
      treatMissingData: cloudwatch.TreatMissingData.BREACHING,
    });
    this.dashboard.addWidgets(
      new cloudwatch.GraphWidget({
        title: 'Outbox lag (s) and events published',
        left: [lag],
        right: [this.appMetric(METRIC_NAMES.outboxPublished, 'Sum')],
        leftAnnotations: [{ value: this.props.thresholds.outboxLagSeconds, label: 'alarm' }],
        width: 8,
      }),
    );
  }

  /** The application's own EMF metrics: per route and per error code, through search expressions. */
  private watchApplicationMetrics(): void {
    const search = (metricName: string, dimension: string, statistic: string) =>
      new cloudwatch.MathExpression({
        expression: `SEARCH('{${METRICS_NAMESPACE},service,stage,${dimension}} MetricName="${metricName}" stage="${this.props.stageName}"', '${statistic}', 300)`,
        usingMetrics: {},
        label: '',
        period: PERIOD,
      });
    this.dashboard.addWidgets(
      new cloudwatch.GraphWidget({ title: 'Requests by route', left: [search(METRIC_NAMES.requests, 'route', 'Sum')], width: 8 }),
      new cloudwatch.GraphWidget({ title: 'Errors by code', left: [search(METRIC_NAMES.errors, 'code', 'Sum')], width: 8 }),
      new cloudwatch.GraphWidget({ title: 'p99 latency by route (ms)', left: [search(METRIC_NAMES.latency, 'route', 'p99')], width: 8 }),
      new cloudwatch.GraphWidget({ title: 'Webhook delivery failures', left: [this.appMetric(METRIC_NAMES.webhookDeliveryFailures, 'Sum')], width: 8 }),
    );
  }
}

/**
 * The Observability of a stage in a nested stack of its own: the topic, its key, the alarms and the
 * dashboard would otherwise take some 40 of the API stack's 500 resources, which the API's
 * methods need.
 */
export class ObservabilityStack extends NestedStack {
  readonly observability: Observability;

  constructor(scope: Construct, id: string, props: ObservabilityProps & NestedStackProps) {
    super(scope, id, props);
    this.observability = new Observability(this, 'Observability', props);
  }
}
