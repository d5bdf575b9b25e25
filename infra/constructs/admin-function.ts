/**
 * The admin function (functions/platform/admin.ts): the operator commands of `npm run cli`, run
 * inside the VPC next to the database. Its fixed name (`bizops-<stage>-admin`) is what
 * `npm run cli -- --stage <stage>` invokes; IAM is the only way in: no API Gateway method, no
 * function URL and no resource-based permission exist for it, so only principals whose own IAM
 * policy allows lambda:InvokeFunction on it (operators) can run a command.
 */
import { Duration } from 'aws-cdk-lib';
import type * as events from 'aws-cdk-lib/aws-events';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { adminFunctionName } from '../../functions/platform/admin-commands';
import { AppFunction, type FunctionLogging, type FunctionNetwork, functionRole } from './app-function';
import type { DatabaseLogin } from './database';

export interface AdminFunctionProps {
  stageName: string;
  code: lambda.Code;
  network: FunctionNetwork;
  logging: FunctionLogging;
  environment: Record<string, string>;
  /** The database login, and the bus run-recurring publishes its journal entries' events to. */
  databaseLogin: DatabaseLogin;
  eventBus: events.IEventBus;
}

export class AdminFunction extends Construct {
  readonly function: lambda.Function;

  constructor(scope: Construct, id: string, props: AdminFunctionProps) {
    super(scope, id);
    const role = functionRole(this, 'Role', 'Operator commands (npm run cli -- --stage)');
    props.databaseLogin.grantConnect(role);
    props.eventBus.grantPutEventsTo(role);
    this.function = new AppFunction(this, 'Admin', {
      functionName: adminFunctionName(props.stageName),
      code: props.code,
      description: 'Operator commands: create-entity, create-user, create-key, run-recurring (IAM-invoked by npm run cli -- --stage)',
      role,
      network: props.network,
      logging: props.logging,
      environment: props.environment,
      // run-recurring over every entity may take minutes, like the daily schedule's run.
      timeout: Duration.minutes(15),
      // Commands are invoked synchronously; an asynchronous invocation must not run twice (two keys).
      retryAttempts: 0,
    }).function;
  }
}
