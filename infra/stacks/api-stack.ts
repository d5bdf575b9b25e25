/**
 * BizOps-<stage>-Api: the stateless half. The REST API with its stage, deployment, authorizer and
 * shared path resources, the migration step, the admin function and the usage-key sync live here;
 * each area of the API (functions/<area>/) is a nested stack holding its path resources, methods
 * and route functions, so the stack's size does not grow with the routes (CloudFormation allows
 * 500 resources a template; test/infra/resource-budget.test.ts keeps every one far below).
 * Alarms, scheduled jobs and webhook delivery are nested stacks of their own.
 */
import { Aws, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as events from 'aws-cdk-lib/aws-events';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { IConstruct } from 'constructs';
import type { Construct } from 'constructs';
import { acceptedKeyModesEnv, type StageConfig } from '../config/stages';
import { AppFunction, type FunctionLogging, type FunctionNetwork, functionRole } from '../constructs/app-function';
import { Api } from '../constructs/api';
import { AdminFunction } from '../constructs/admin-function';
import { DatabaseMigration } from '../constructs/migration';
import { CutoverSnapshotWorkflow } from '../constructs/cutover-snapshot';
import { type Observability, ObservabilityStack } from '../constructs/observability';
import { ApiFirewall } from '../constructs/waf';
import { METRICS_NAMESPACE } from '../../shared/metric-names';
import { ApiAreaStack } from '../constructs/api-area';
import { ScheduledJob, ScheduledJobsStack } from '../constructs/scheduled-job';
import { type WebhookDelivery, WebhooksStack } from '../constructs/webhooks';
import { CUTOVER_SNAPSHOT_ROUTE_KEYS, type FunctionCodeSource, MIGRATIONS_ASSET_DIR, PLATFORM_BUNDLES, PROCESSOR_ROUTE_KEYS } from '../functions';
import { constructIdOf, routesByArea, type RouteSpec } from '../routes';
import type { DataResources } from './data-stack';

export interface ApiStackProps extends StackProps {
  stage: StageConfig;
  data: DataResources;
  routes: readonly RouteSpec[];
  code: FunctionCodeSource;
  /** The SQL migrations on the synth machine; hashed so the migration step re-runs on change. */
  migrationsDir: string;
}

export class ApiStack extends Stack {
  readonly api: Api;
  /** One nested stack per area of the API, in area order. */
  readonly routeStacks: ApiAreaStack[];
  readonly migration: DatabaseMigration;
  readonly cutoverSnapshot: CutoverSnapshotWorkflow;
  readonly observability: Observability;
  readonly admin: AdminFunction;
  readonly webhooks: WebhookDelivery;
  /** Scheduled jobs in a nested stack (infra/constructs/scheduled-job.ts says why). */
  readonly scheduledJobs: ScheduledJobsStack;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    const { stage, data, code } = props;

    const network: FunctionNetwork = { vpc: data.vpc, subnets: data.subnets, securityGroup: data.functionsSecurityGroup };
    // Only functions that call the internet (webhook delivery, the card processor) run where NAT reaches.
    const egressNetwork: FunctionNetwork = { ...network, subnets: data.egressSubnets };
    const logging: FunctionLogging = { retentionDays: stage.logs.functionsRetentionDays, removal: stage.logs.removal };
    // What shared/db, shared/http/idempotency, shared/events and shared/auth read at runtime.
    const runtimeEnvironment: Record<string, string> = {
      NODE_ENV: 'production',
      DB_USER: data.database.appLogin.username,
      DB_HOST: data.database.proxyEndpoint,
      DB_PORT: String(data.database.port),
      DB_NAME: data.database.name,
      // One connection per execution environment: Lambda runs one request at a time, and RDS
      // Proxy does the pooling across environments.
      DATABASE_POOL_MAX: '1',
      // The route functions and the authorizer open that connection while they initialise (shared/db/database.ts).
      DATABASE_CONNECT_DURING_INIT: 'true',
      IDEMPOTENCY_TABLE_NAME: data.idempotencyTable.tableName,
      EVENT_BUS_NAME: data.eventBus.eventBusName,
      ACCEPTED_KEY_MODES: acceptedKeyModesEnv(stage),
      POWERTOOLS_SERVICE_NAME: 'bizops-api',
      // The custom metrics' namespace and stage dimension (shared/powertools.ts).
      POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
      STAGE_NAME: stage.name,
      PAYMENT_PROCESSOR: stage.payments.processor,
    };
    // The usage tiers, the default first (shared/auth/usage-identifier.ts): for the authorizer's
    // usage identifiers, create-entity --tier and the usage-key sync; route functions never need them.
    const usageTierEnvironment = { USAGE_TIERS: stage.api.usageTiers.map((tier) => tier.name).join(',') };
    // Stripe keys live in a secret created outside CDK; only the card routes may read it.
    const stripeSecret = stage.payments.stripeSecretName
      ? secretsmanager.Secret.fromSecretNameV2(this, 'StripeSecret', stage.payments.stripeSecretName)
      : undefined;
    const stripeSecretCheck = stage.payments.stripeSecretName ? cardProcessorSecretCheck(this, stage.payments.stripeSecretName) : undefined;

    this.migration = new DatabaseMigration(this, 'Migration', {
      code: code.code(PLATFORM_BUNDLES.migrateDatabase),
      migrationsDir: props.migrationsDir,
      migrationsDirInAsset: MIGRATIONS_ASSET_DIR,
      network: { ...network, securityGroup: data.migrationSecurityGroup },
      logging,
      clusterEndpoint: data.database.clusterEndpoint,
      port: data.database.port,
      databaseName: data.database.name,
      adminSecret: data.database.adminSecret,
      appSecret: data.database.appSecret,
    });

    // The authorizer reads keys (as app_authenticator) but never the idempotency table or the bus.
    const authorizerRole = functionRole(this, 'AuthorizerRole', 'API key authorizer');
    data.database.appLogin.grantConnect(authorizerRole);
    const authorizer = new AppFunction(this, 'Authorizer', {
      code: code.code(PLATFORM_BUNDLES.authorizer),
      description: 'API Gateway REQUEST authorizer: API key to entity and scopes',
      role: authorizerRole,
      network,
      logging,
      // Its one statement is a key lookup: tighter database waits (4 s + 5 s) so a database fault
      // ends in the authorizer's own 503 before its 10 s function timeout.
      environment: { ...runtimeEnvironment, ...usageTierEnvironment, DATABASE_ACQUIRE_TIMEOUT_MS: '4000', DATABASE_STATEMENT_TIMEOUT_MS: '5000' },
      // Bounded well below the integration timeout so a slow database fails the request fast.
      timeout: Duration.seconds(10),
    });
    authorizer.node.addDependency(this.migration.resource);

    this.api = new Api(this, 'Api', {
      restApiName: `bizops-${stage.name}`,
      stageName: stage.name,
      throttle: { rateLimit: stage.api.throttleRateLimit, burstLimit: stage.api.throttleBurstLimit },
      usageTiers: stage.api.usageTiers,
      authorizerFunction: authorizer.function,
      authorizerCacheTtl: Duration.seconds(stage.api.authorizerCacheTtlSeconds),
      accessLogRetentionDays: stage.logs.apiAccessRetentionDays,
      logRemoval: stage.logs.removal,
      customDomain: stage.api.customDomain,
    });

    // Where integrators reach this stage (shared/public-url.ts): the served document's server and
    // the error envelopes' doc_url. Built from the API's id, not its deployment stage, which
    // depends on every method and so on these functions.
    const publicEnvironment = {
      PUBLIC_BASE_URL: this.api.publicBaseUrl,
      STAGE_NAME: stage.name,
    };

    new ApiFirewall(this, 'Firewall', {
      name: `bizops-${stage.name}`,
      restApiId: this.api.restApi.restApiId,
      stageName: this.api.restApi.deploymentStage.stageName,
      requestsPerIpPer5Minutes: stage.api.wafRequestsPerIpPer5Minutes,
    });

    // Alarms, the dashboard, and (registered by themselves) every scheduled job's dead-letter queue.
    this.observability = new ObservabilityStack(this, 'Operations', {
      description: `BizOps ${stage.name} alarms and dashboard`,
      stageName: stage.name,
      alarmEmail: stage.observability.alarmEmail,
      api: { restApiName: `bizops-${stage.name}`, stageName: stage.name },
      database: { clusterIdentifier: data.database.identifier, proxyName: data.database.identifier, maxCapacityAcu: stage.database.maxCapacity },
      thresholds: stage.observability,
      metricsService: runtimeEnvironment.POWERTOOLS_SERVICE_NAME,
    }).observability;
    this.observability.watchFunction('Authorizer', authorizer.function);

    // The cutover snapshot workflow (one definition, shared with the local runner). Real snapshots in prod; the stub branch elsewhere.
    const cutoverEnvironment = { CUTOVER_ENV: stage.name === 'prod' ? 'prod' : 'dev', DB_CLUSTER_IDENTIFIER: data.database.identifier };
    this.cutoverSnapshot = new CutoverSnapshotWorkflow(this, 'CutoverSnapshot', {
      code: code.code(PLATFORM_BUNDLES.cutoverSnapshotTask),
      network,
      logging,
      environment: runtimeEnvironment,
      databaseLogin: data.database.appLogin,
      eventBus: data.eventBus,
      clusterIdentifier: data.database.identifier,
    });
    this.cutoverSnapshot.taskFunction.node.addDependency(this.migration.resource);
    const cutoverSnapshot = {
      routeKeys: CUTOVER_SNAPSHOT_ROUTE_KEYS,
      workflow: this.cutoverSnapshot,
      environment: { ...cutoverEnvironment, CUTOVER_STATE_MACHINE_ARN: this.cutoverSnapshot.stateMachine.stateMachineArn },
    };

    const unknownProvisioned = Object.keys(stage.api.provisionedConcurrency).filter((id) => !props.routes.some((route) => route.id === id));
    if (unknownProvisioned.length) throw new Error(`api.provisionedConcurrency names routes that do not exist: ${unknownProvisioned.join(', ')}`);
    this.routeStacks = [...routesByArea(props.routes)].map(([area, routes]) => {
      const nested = new ApiAreaStack(this, `Routes${constructIdOf(area)}`, {
        description: `BizOps ${stage.name} API area ${area}: path resources, methods and route functions`,
        routes,
        api: this.api,
        code,
        network,
        logging,
        environment: { ...runtimeEnvironment, ...publicEnvironment },
        access: { databaseLogin: data.database.appLogin, idempotencyTable: data.idempotencyTable, eventBus: data.eventBus },
        cardProcessor: { routeKeys: PROCESSOR_ROUTE_KEYS, network: egressNetwork, secret: stripeSecret },
        cutoverSnapshot,
        provisionedConcurrency: stage.api.provisionedConcurrency,
      });
      // New code must not serve requests before the schema it expects exists.
      nested.node.addDependency(this.migration.resource);
      // Nor card routes before their secret is known to exist.
      if (stripeSecretCheck && routes.some((route) => PROCESSOR_ROUTE_KEYS.has(route.key))) nested.node.addDependency(stripeSecretCheck);
      return nested;
    });

    const jobDefaults = {
      network,
      logging,
      environment: runtimeEnvironment,
      databaseLogin: data.database.appLogin,
      eventBus: data.eventBus,
    };
    // The scheduled jobs live in a nested stack of their own: the API stack's REST resources and
    // methods leave little room under CloudFormation's 500 resources per stack, and a job is nine.
    this.scheduledJobs = new ScheduledJobsStack(this, 'ScheduledJobs', { description: `BizOps ${stage.name} scheduled jobs` });
    // New code must not run before the schema it expects exists.
    this.scheduledJobs.node.addDependency(this.migration.resource);
    new ScheduledJob(this.scheduledJobs, 'OutboxSweeper', {
      ...jobDefaults,
      description: 'Publishes outbox events a request committed but did not publish (every minute)',
      schedule: events.Schedule.rate(Duration.minutes(1)),
      code: code.code(PLATFORM_BUNDLES.outboxSweeper),
      timeout: Duration.seconds(60),
      // A failed sweep is simply the next minute's work.
      retryAttempts: 0,
    });
    new ScheduledJob(this.scheduledJobs, 'RecurringJournalEntries', {
      ...jobDefaults,
      description: 'Posts the recurring journal entries due today (daily, 00:15 UTC)',
      // The run's as-of date is the schedule's UTC date, so retries post the same day's occurrences.
      schedule: events.Schedule.cron({ minute: '15', hour: '0' }),
      code: code.code(PLATFORM_BUNDLES.recurringJournalRunner),
      timeout: Duration.minutes(15),
      // Re-running posts each occurrence once, so retrying a failed run is safe.
      retryAttempts: 2,
    });
    new ScheduledJob(this.scheduledJobs, 'VendorCreditExpiry', {
      ...jobDefaults,
      description: 'Forfeits the remaining balance of vendor credits past expires_at (hourly)',
      // The run expires what was due at the schedule's own time, so a retry does the same work.
      schedule: events.Schedule.rate(Duration.hours(1)),
      code: code.code(PLATFORM_BUNDLES.vendorCreditExpiry),
      timeout: Duration.minutes(15),
      // Each credit is claimed and expired once, so retrying a failed run is safe.
      retryAttempts: 2,
    });
    new ScheduledJob(this.scheduledJobs, 'QuoteExpiry', {
      ...jobDefaults,
      description: 'Records order.expired once for each quote past expires_at (hourly)',
      // The run announces what had lapsed at the schedule's own time, so a retry does the same work.
      schedule: events.Schedule.rate(Duration.hours(1)),
      code: code.code(PLATFORM_BUNDLES.quoteExpiry),
      timeout: Duration.minutes(15),
      // Each quote is claimed and marked once, so retrying a failed run is safe.
      retryAttempts: 2,
    });

    // Per-key throttling: each API key's own gateway key in its tier's usage plan (shared/tenants/usage-keys.ts).
    const usageKeySync = new ScheduledJob(this, 'UsageKeySync', {
      ...jobDefaults,
      // The API Gateway management API is reached through NAT: it has no endpoint inside the VPC.
      network: egressNetwork,
      environment: {
        ...runtimeEnvironment,
        ...usageTierEnvironment,
        USAGE_PLAN_IDS: this.toJsonString(Object.fromEntries(Object.entries(this.api.usagePlans).map(([tier, plan]) => [tier, plan.usagePlanId]))),
      },
      description: 'Gives new API keys their own API Gateway key in their tier usage plan (every minute)',
      schedule: events.Schedule.rate(Duration.minutes(1)),
      code: code.code(PLATFORM_BUNDLES.usageKeySync),
      timeout: Duration.seconds(60),
      // A failed run is the next minute's work: unsynced keys stay pending.
      retryAttempts: 0,
    });
    usageKeySync.node.addDependency(this.migration.resource);
    grantUsageKeySync(usageKeySync.function, Object.values(this.api.usagePlans));

    // `npm run cli -- --stage <stage> <command>`: IAM-invoked only, never routed by API Gateway.
    this.admin = new AdminFunction(this, 'Admin', {
      stageName: stage.name,
      code: code.code(PLATFORM_BUNDLES.admin),
      network,
      logging,
      environment: { ...runtimeEnvironment, ...usageTierEnvironment },
      databaseLogin: data.database.appLogin,
      eventBus: data.eventBus,
    });
    this.admin.node.addDependency(this.migration.resource);

    // Webhooks, in a nested stack: a rule from the bus to the dispatcher, and the retry schedule (infra/constructs/webhooks.ts).
    this.webhooks = new WebhooksStack(this, 'WebhooksStack', {
      description: `BizOps ${stage.name} webhook delivery`,
      eventBus: data.eventBus,
      dispatcherCode: code.code(PLATFORM_BUNDLES.webhookDispatcher),
      retryCode: code.code(PLATFORM_BUNDLES.webhookRetry),
      network: egressNetwork,
      logging,
      environment: { ...runtimeEnvironment, STAGE_NAME: stage.name },
      databaseLogin: data.database.appLogin,
    }).delivery;
    this.webhooks.node.addDependency(this.migration.resource);
    // The dispatcher is invoked by the bus, not a schedule: watched like a job (errors, throttles, its dead-letter queue).
    this.observability.watchJob({ name: 'WebhookDispatcher', function: this.webhooks.dispatcher, deadLetterQueue: this.webhooks.deadLetterQueue });
  }
}

/**
 * The card processor's secret is created outside CDK (README, Deploy): this resource policy on it
 * makes a deploy without it fail at once (CloudFormation: "Secrets Manager can't find the specified
 * secret"), and refuses the secret to every principal outside the account, whatever another policy
 * says. Inside the account, only the card routes' role is granted reads (infra/constructs/api-area.ts).
 */
function cardProcessorSecretCheck(scope: Stack, secretName: string): IConstruct {
  return new secretsmanager.CfnResourcePolicy(scope, 'CardProcessorSecretPolicy', {
    secretId: secretName,
    blockPublicPolicy: true,
    resourcePolicy: {
      Version: '2012-10-17',
      Statement: [
        {
          Sid: 'OnlyThisAccount',
          Effect: 'Deny',
          Principal: '*',
          Action: 'secretsmanager:*',
          Resource: '*',
          Condition: { StringNotEquals: { 'aws:PrincipalAccount': Aws.ACCOUNT_ID } },
        },
      ],
    },
  });
}

/** The sync job may create API keys and put them in this stage's usage plans; nothing else of API Gateway. */
function grantUsageKeySync(fn: lambda.IFunction, plans: readonly apigw.UsagePlan[]): void {
  const arn = (path: string) => `arn:${Aws.PARTITION}:apigateway:${Aws.REGION}::${path}`;
  fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['apigateway:POST', 'apigateway:GET'], resources: [arn('/apikeys')] }));
  fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['apigateway:POST'], resources: plans.map((plan) => arn(`/usageplans/${plan.usagePlanId}/keys`)) }));
}
