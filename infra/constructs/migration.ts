/**
 * The deploy-time database step: a custom resource whose handler
 * (functions/platform/migrate-database.ts) provisions the application login and applies the SQL
 * migrations. Its properties include a hash of migrations/, so CloudFormation calls it again
 * exactly when a migration file is added or changed; route functions depend on it, so new code
 * never goes live before the schema it needs.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { CustomResource, Duration, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as cr from 'aws-cdk-lib/custom-resources';
import { Construct } from 'constructs';
import { acknowledge, removalPolicyOf, retentionOf } from './conventions';
import { AppFunction, type FunctionLogging, type FunctionNetwork, functionRole } from './app-function';

export interface DatabaseMigrationProps {
  code: lambda.Code;
  /** Directory of the SQL migrations on the synth machine (hashed to trigger re-runs). */
  migrationsDir: string;
  /** Where the handler finds them inside its asset. */
  migrationsDirInAsset: string;
  network: FunctionNetwork;
  logging: FunctionLogging;
  /** The cluster writer endpoint: migrations bypass the proxy. */
  clusterEndpoint: string;
  port: number;
  databaseName: string;
  adminSecret: secretsmanager.ISecret;
  appSecret: secretsmanager.ISecret;
}

/** A stable digest of every file under `dir` (names and contents, in sorted order). */
function hashDirectory(dir: string): string {
  const hash = createHash('sha256');
  const walk = (current: string): string[] =>
    readdirSync(current, { withFileTypes: true }).flatMap((item) =>
      item.isDirectory() ? walk(join(current, item.name)) : item.isFile() ? [join(current, item.name)] : [],
    );
  for (const file of walk(dir).sort()) {
    hash.update(relative(dir, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

export class DatabaseMigration extends Construct {
  readonly resource: CustomResource;
  readonly function: lambda.Function;

  constructor(scope: Construct, id: string, props: DatabaseMigrationProps) {
    super(scope, id);

    const role = functionRole(this, 'Role', 'Deploy-time database migrations');
    props.adminSecret.grantRead(role);
    props.appSecret.grantRead(role);

    this.function = new AppFunction(this, 'Migrate', {
      code: props.code,
      description: 'Applies SQL migrations and provisions the application login (custom resource)',
      role,
      network: props.network,
      logging: props.logging,
      // A large migration may run for minutes; the provider framework waits up to 15.
      timeout: Duration.minutes(10),
      memorySize: 512,
      environment: {
        NODE_ENV: 'production',
        ADMIN_SECRET_ARN: props.adminSecret.secretArn,
        APP_SECRET_ARN: props.appSecret.secretArn,
        DB_HOST: props.clusterEndpoint,
        DB_PORT: String(props.port),
        DB_NAME: props.databaseName,
        MIGRATIONS_DIR: `/var/task/${props.migrationsDirInAsset}`,
        // Node.js 20+ runtimes no longer trust the RDS CA by default; the cluster's certificate
        // (unlike the proxy's public one) chains to it.
        NODE_EXTRA_CA_CERTS: '/var/runtime/ca-cert.pem',
      },
    }).function;

    const providerLogs = new logs.LogGroup(this, 'ProviderLogs', {
      retention: retentionOf(props.logging.retentionDays),
      removalPolicy: removalPolicyOf(props.logging.removal),
    });
    // The framework function only relays events: it writes its own log group and invokes the
    // migration function (the Provider adds that grant), instead of AWSLambdaBasicExecutionRole.
    const frameworkRole = new iam.Role(this, 'ProviderRole', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: 'Custom-resource framework for the database migrations',
    });
    providerLogs.grantWrite(frameworkRole);
    const provider = new cr.Provider(this, 'Provider', {
      onEventHandler: this.function,
      logGroup: providerLogs,
      frameworkOnEventRole: frameworkRole,
    });

    this.resource = new CustomResource(this, 'Resource', {
      serviceToken: provider.serviceToken,
      resourceType: 'Custom::BizOpsDatabaseMigrations',
      properties: {
        MigrationsHash: hashDirectory(props.migrationsDir),
        // A new secret (or login) means the role must be re-provisioned.
        AppSecretArn: props.appSecret.secretArn,
        DatabaseName: props.databaseName,
      },
    });

    const migrateLogicalId = Stack.of(this).getLogicalId(this.function.node.defaultChild as lambda.CfnFunction);
    acknowledge(
      frameworkRole,
      `AwsSolutions-IAM5[Resource::<${migrateLogicalId}.Arn>:*]`,
      'Set by the custom-resource framework: it may invoke any version of the migration function, and nothing else.',
    );
  }
}
