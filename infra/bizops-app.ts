/**
 * Composes the two stacks of a stage onto a CDK app. infra/app.ts calls it with the real route
 * table and bundles; tests call it with synthetic routes and inline stand-in code.
 */
import { type App, Tags, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { StageConfig } from './config/stages';
import type { FunctionCodeSource } from './functions';
import type { RouteSpec } from './routes';
import { API_GATEWAY_ACCOUNT_STACK_NAME, ApiGatewayAccountStack } from './stacks/account-stack';
import { ApiStack } from './stacks/api-stack';
import { DataStack } from './stacks/data-stack';

export interface BizOpsStacksOptions {
  stage: StageConfig;
  routes: readonly RouteSpec[];
  code: FunctionCodeSource;
  migrationsDir: string;
  /**
   * Whether BizOps-ApiGatewayAccount sets the account's API Gateway CloudWatch role (operator
   * setting manageApiGatewayAccount): false where the account already has one that other APIs use.
   */
  manageApiGatewayAccount: boolean;
}

export interface BizOpsStacks {
  /** Per account and region, shared by the stages: API Gateway's CloudWatch role (absent when the operator keeps the account's own). */
  account?: ApiGatewayAccountStack;
  data: DataStack;
  api: ApiStack;
}

function stackNames(stage: StageConfig): { data: string; api: string } {
  return { data: `BizOps-${stage.name}-Data`, api: `BizOps-${stage.name}-Api` };
}

export function addBizOpsStacks(app: App, options: BizOpsStacksOptions): BizOpsStacks {
  const { stage } = options;
  const names = stackNames(stage);
  // No env: the stacks are account- and region-agnostic, so synthesis needs no credentials.
  const data = new DataStack(app, names.data, {
    stackName: names.data,
    description: `BizOps ${stage.name}: network, Aurora PostgreSQL with RDS Proxy, idempotency table, event bus`,
    terminationProtection: stage.database.deletionProtection,
    stage,
  });
  const api = new ApiStack(app, names.api, {
    stackName: names.api,
    description: `BizOps ${stage.name}: REST API, route functions, authorizer, outbox sweeper, migrations`,
    stage,
    data: data.resources,
    routes: options.routes,
    code: options.code,
    migrationsDir: options.migrationsDir,
  });
  Tags.of(app).add('app', 'bizops');
  Tags.of(app).add('stage', stage.name);
  if (!options.manageApiGatewayAccount) return { data, api };
  // Created once per account and region, whichever stage is deployed (same template either way).
  const account = new ApiGatewayAccountStack(app, API_GATEWAY_ACCOUNT_STACK_NAME, {
    stackName: API_GATEWAY_ACCOUNT_STACK_NAME,
    description: 'BizOps: the account-wide API Gateway CloudWatch role (execution logs of every stage)',
  });
  api.addStackDependency(account, 'the stage logs through the account-wide API Gateway CloudWatch role');
  Tags.of(account).add('stage', 'all');
  return { account, data, api };
}

/** The AWS Solutions rule pack, run on every synthesis; unacknowledged errors fail it. */
export function addNagChecks(app: App): AwsSolutionsChecks {
  const checks = new AwsSolutionsChecks(app);
  Validations.of(app).addPlugins(checks);
  return checks;
}
