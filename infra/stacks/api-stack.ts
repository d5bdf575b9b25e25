/**
 * BizOps-<stage>-Api: the stateless half. The REST API and its methods, the authorizer, the
 * scheduled jobs (outbox sweeper, recurring journal entries) and the migration step live here;
 * route functions live in nested stacks of at most ROUTES_PER_NESTED_STACK routes each, so ~90
 * routes fit comfortably in CloudFormation's 500-resources-per-stack limit.
 */
import { Aws, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { acceptedKeyModesEnv, type StageConfig } from '../config/stages';
import { AppFunction, type FunctionLogging, type FunctionNetwork, functionRole } from '../constructs/app-function';
import { Api } from '../constructs/api';
import { DatabaseMigration } from '../constructs/migration';
import { RouteFunctionsStack } from '../constructs/route-functions';
import { ScheduledJob } from '../constructs/scheduled-job';
import { type FunctionCodeSource, MIGRATIONS_ASSET_DIR, PLATFORM_BUNDLES } from '../functions';
import { chunkRoutes, ROUTES_PER_NESTED_STACK, type RouteSpec } from '../routes';
import type { DataResources } from './data-stack';

export interface ApiStackProps extends StackProps {
  stage: StageConfig;
  data: DataResources;
  routes: readonly RouteSpec[];
  code: FunctionCodeSource;
  /** The SQL migrations on the synth machine; hashed so the migration step re-runs on change. */
  migrationsDir: string;
  routesPerNestedStack?: number;
}

export class ApiStack extends Stack {
  readonly api: Api;
  readonly routeStacks: RouteFunctionsStack[];
  readonly migration: DatabaseMigration;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    const { stage, data, code } = props;

    const network: FunctionNetwork = { vpc: data.vpc, subnets: data.subnets, securityGroup: data.functionsSecurityGroup };
    const logging: FunctionLogging = { retentionDays: stage.logs.functionsRetentionDays, removal: stage.logs.removal };
    // What shared/db, shared/http/idempotency, shared/events and shared/auth read at runtime.
    const runtimeEnvironment: Record<string, string> = {
      NODE_ENV: 'production',
      DB_SECRET_ARN: data.database.appSecret.secretArn,
      DB_HOST: data.database.proxyEndpoint,
      DB_PORT: String(data.database.port),
      DB_NAME: data.database.name,
      // One connection per execution environment: Lambda runs one request at a time, and RDS
      // Proxy does the pooling across environments.
      DATABASE_POOL_MAX: '1',
      IDEMPOTENCY_TABLE_NAME: data.idempotencyTable.tableName,
      EVENT_BUS_NAME: data.eventBus.eventBusName,
      ACCEPTED_KEY_MODES: acceptedKeyModesEnv(stage),
      POWERTOOLS_SERVICE_NAME: 'bizops-api',
      PAYMENT_PROCESSOR: stage.payments.processor,
    };
    // Stripe keys live in a secret created outside CDK; only the route functions may read it.
    const stripeSecret = stage.payments.stripeSecretName
      ? secretsmanager.Secret.fromSecretNameV2(this, 'StripeSecret', stage.payments.stripeSecretName)
      : undefined;
    const routeEnvironment = stripeSecret ? { ...runtimeEnvironment, STRIPE_SECRET_ARN: stripeSecret.secretArn } : runtimeEnvironment;

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
    data.database.appSecret.grantRead(authorizerRole);
    const authorizer = new AppFunction(this, 'Authorizer', {
      code: code.code(PLATFORM_BUNDLES.authorizer),
      description: 'API Gateway REQUEST authorizer: API key to entity and scopes',
      role: authorizerRole,
      network,
      logging,
      // Its one statement is a key lookup: tighter database waits (4 s + 5 s) so a database fault
      // ends in the authorizer's own 503 before its 10 s function timeout.
      environment: { ...runtimeEnvironment, DATABASE_ACQUIRE_TIMEOUT_MS: '4000', DATABASE_STATEMENT_TIMEOUT_MS: '5000' },
      // Bounded well below the integration timeout so a slow database fails the request fast.
      timeout: Duration.seconds(10),
    });
    authorizer.node.addDependency(this.migration.resource);

    this.api = new Api(this, 'Api', {
      restApiName: `bizops-${stage.name}`,
      stageName: stage.name,
      throttle: { rateLimit: stage.api.throttleRateLimit, burstLimit: stage.api.throttleBurstLimit },
      authorizerFunction: authorizer.function,
      authorizerCacheTtl: Duration.seconds(stage.api.authorizerCacheTtlSeconds),
      accessLogRetentionDays: stage.logs.apiAccessRetentionDays,
      logRemoval: stage.logs.removal,
      manageCloudWatchRole: stage.api.manageCloudWatchRole,
    });

    // Where integrators reach this stage (shared/public-url.ts): the served document's server and
    // the error envelopes' doc_url. Built from the API's id, not its deployment stage, which
    // depends on every method and so on these functions.
    const publicEnvironment = {
      PUBLIC_BASE_URL: `https://${this.api.restApi.restApiId}.execute-api.${Aws.REGION}.${Aws.URL_SUFFIX}/${this.api.stageName}`,
      STAGE_NAME: stage.name,
    };

    this.routeStacks = chunkRoutes(props.routes, props.routesPerNestedStack ?? ROUTES_PER_NESTED_STACK).map((chunk, index) => {
      const nested = new RouteFunctionsStack(this, `Routes${index + 1}`, {
        description: `BizOps ${stage.name} route functions, part ${index + 1}`,
        routes: chunk,
        code,
        network,
        logging,
        environment: { ...routeEnvironment, ...publicEnvironment },
        access: { appSecret: data.database.appSecret, idempotencyTable: data.idempotencyTable, eventBus: data.eventBus, stripeSecret },
        api: { restApiId: this.api.restApi.restApiId, stageName: this.api.stageName },
      });
      // New code must not serve requests before the schema it expects exists.
      nested.node.addDependency(this.migration.resource);
      for (const route of chunk) this.api.addRoute(route, nested.functions.get(route.key)!);
      return nested;
    });

    const jobDefaults = {
      network,
      logging,
      environment: runtimeEnvironment,
      appSecret: data.database.appSecret,
      eventBus: data.eventBus,
    };
    new ScheduledJob(this, 'OutboxSweeper', {
      ...jobDefaults,
      description: 'Publishes outbox events a request committed but did not publish (every minute)',
      schedule: events.Schedule.rate(Duration.minutes(1)),
      code: code.code(PLATFORM_BUNDLES.outboxSweeper),
      timeout: Duration.seconds(60),
      // A failed sweep is simply the next minute's work.
      retryAttempts: 0,
    }).node.addDependency(this.migration.resource);
    new ScheduledJob(this, 'RecurringJournalEntries', {
      ...jobDefaults,
      description: 'Posts the recurring journal entries due today (daily, 00:15 UTC)',
      // The run's as-of date is the schedule's UTC date, so retries post the same day's occurrences.
      schedule: events.Schedule.cron({ minute: '15', hour: '0' }),
      code: code.code(PLATFORM_BUNDLES.recurringJournalRunner),
      timeout: Duration.minutes(15),
      // Re-running posts each occurrence once, so retrying a failed run is safe.
      retryAttempts: 2,
    }).node.addDependency(this.migration.resource);
  }
}
