/**
 * One nested stack holding the Lambda functions of a slice of the route table: per route a
 * function, its log group and the permission that lets API Gateway invoke it. The API methods
 * stay in the parent stack. All functions of the slice share one execution role.
 *
 * CloudFormation caps a stack at 500 resources; at three resources a route, slices of 25 routes
 * keep each nested stack around 80 resources and the parent well under the cap at ~90 routes.
 */
import { ArnFormat, NestedStack, type NestedStackProps, Stack } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as events from 'aws-cdk-lib/aws-events';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import type { FunctionCodeSource } from '../functions';
import { constructIdOf, type RouteSpec } from '../routes';
import { AppFunction, type FunctionLogging, type FunctionNetwork, functionRole } from './app-function';
import type { DatabaseLogin } from './database';
import type { CutoverSnapshotWorkflow } from './cutover-snapshot';

export interface RouteFunctionsProps extends NestedStackProps {
  routes: readonly RouteSpec[];
  code: FunctionCodeSource;
  network: FunctionNetwork;
  /** The network with internet egress, for the routes named in egressRouteKeys (the card processor's). */
  egressNetwork?: FunctionNetwork;
  egressRouteKeys?: ReadonlySet<string>;
  logging: FunctionLogging;
  environment: Record<string, string>;
  access: {
    databaseLogin: DatabaseLogin;
    idempotencyTable: dynamodb.ITable;
    eventBus: events.IEventBus;
    /** The Stripe keys, when the stage's payment processor is Stripe. */
    stripeSecret?: secretsmanager.ISecret;
  };
  /** The routes that start cutover snapshots: they may start executions of the workflow, and learn its ARN and settings. */
  cutoverSnapshot?: { routeKeys: ReadonlySet<string>; workflow: CutoverSnapshotWorkflow; environment: Record<string, string> };
  /** The REST API and stage whose methods may invoke these functions. */
  api: { restApiId: string; stageName: string };
}

/** The actions Powertools' DynamoDB persistence layer performs on idempotency records. */
const IDEMPOTENCY_ACTIONS = ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'];

/** `/v1/locations/{id}` → `/v1/locations/*`, as execute-api ARNs spell path parameters. */
export function arnPathOf(path: string): string {
  return path.replace(/\{[^}]+\}/g, '*');
}

export class RouteFunctionsStack extends NestedStack {
  /** Route key → the function that serves it. */
  readonly functions = new Map<string, lambda.IFunction>();

  constructor(scope: Construct, id: string, props: RouteFunctionsProps) {
    super(scope, id, props);

    const role = functionRole(this, 'RouteRole', `Route functions of ${this.node.path}`);
    props.access.databaseLogin.grantConnect(role);
    props.access.idempotencyTable.grant(role, ...IDEMPOTENCY_ACTIONS);
    props.access.eventBus.grantPutEventsTo(role);
    props.access.stripeSecret?.grantRead(role);
    if (props.routes.some((route) => props.cutoverSnapshot?.routeKeys.has(route.key))) props.cutoverSnapshot!.workflow.grantStart(role);

    for (const route of props.routes) {
      const snapshotRoute = props.cutoverSnapshot?.routeKeys.has(route.key) ?? false;
      const { function: fn } = new AppFunction(this, constructIdOf(route.id), {
        code: props.code.code(route.key),
        description: `${route.method} ${route.path} (${route.id})`,
        role,
        network: props.egressNetwork && props.egressRouteKeys?.has(route.key) ? props.egressNetwork : props.network,
        logging: props.logging,
        environment: snapshotRoute ? { ...props.environment, ...props.cutoverSnapshot!.environment } : props.environment,
      });
      fn.addPermission('ApiGatewayInvoke', {
        principal: new iam.ServicePrincipal('apigateway.amazonaws.com'),
        // Only this method of this stage may invoke the function (no test-invoke permission).
        sourceArn: Stack.of(this).formatArn({
          service: 'execute-api',
          resource: props.api.restApiId,
          resourceName: `${props.api.stageName}/${route.method}${arnPathOf(route.path)}`,
          arnFormat: ArnFormat.SLASH_RESOURCE_NAME,
        }),
      });
      this.functions.set(route.key, fn);
    }
  }
}
