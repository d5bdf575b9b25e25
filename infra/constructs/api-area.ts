/**
 * One nested stack per area of the API (`orders`, `vendor-bills`, `api-keys`: the folders of
 * functions/): its path resources, and per route the method, the Lambda function, its log group
 * and the permission that lets that method invoke it. The REST API, its stage and deployment, the
 * authorizer and the shared path resources (/v1, /v1/entities/{entity_id}) stay in the API stack;
 * the deployment depends on every method here.
 *
 * The functions of an area share one execution role; the routes that charge cards get their own,
 * the only role that may read the card processor's secret.
 */
import { ArnFormat, NestedStack, type NestedStackProps, Stack } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as events from 'aws-cdk-lib/aws-events';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import type { FunctionCodeSource } from '../functions';
import { constructIdOf, type RouteSpec } from '../routes';
import type { Api } from './api';
import { AppFunction, type FunctionLogging, type FunctionNetwork, functionRole } from './app-function';
import type { CutoverSnapshotWorkflow } from './cutover-snapshot';
import type { DatabaseLogin } from './database';

export interface ApiAreaProps extends NestedStackProps {
  routes: readonly RouteSpec[];
  api: Api;
  code: FunctionCodeSource;
  network: FunctionNetwork;
  logging: FunctionLogging;
  environment: Record<string, string>;
  access: {
    databaseLogin: DatabaseLogin;
    idempotencyTable: dynamodb.ITable;
    eventBus: events.IEventBus;
  };
  /**
   * The routes that call the card processor: they run where NAT reaches the internet, and when the
   * processor keeps its keys in a secret, their role alone may read it and only they learn its ARN.
   */
  cardProcessor: { routeKeys: ReadonlySet<string>; network: FunctionNetwork; secret?: secretsmanager.ISecret };
  /** The routes that start cutover snapshots: they may start executions of the workflow, and learn its ARN and settings. */
  cutoverSnapshot?: { routeKeys: ReadonlySet<string>; workflow: CutoverSnapshotWorkflow; environment: Record<string, string> };
  /** Route id → execution environments kept initialised (stage config `api.provisionedConcurrency`). */
  provisionedConcurrency: Readonly<Record<string, number>>;
}

/** The actions Powertools' DynamoDB persistence layer performs on idempotency records. */
const IDEMPOTENCY_ACTIONS = ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'];

/** `/v1/locations/{id}` → `/v1/locations/*`, as execute-api ARNs spell path parameters. */
export function arnPathOf(path: string): string {
  return path.replace(/\{[^}]+\}/g, '*');
}

export class ApiAreaStack extends NestedStack {
  /** Route key → the function that serves it. */
  readonly functions = new Map<string, lambda.IFunction>();

  constructor(scope: Construct, id: string, props: ApiAreaProps) {
    super(scope, id, props);

    const routeRole = (roleId: string, description: string) => {
      const role = functionRole(this, roleId, description);
      props.access.databaseLogin.grantConnect(role);
      props.access.idempotencyTable.grant(role, ...IDEMPOTENCY_ACTIONS);
      props.access.eventBus.grantPutEventsTo(role);
      return role;
    };
    const isCardRoute = (route: RouteSpec) => props.cardProcessor.routeKeys.has(route.key);
    const isSnapshotRoute = (route: RouteSpec) => props.cutoverSnapshot?.routeKeys.has(route.key) ?? false;

    const role = props.routes.some((route) => !isCardRoute(route)) ? routeRole('RouteRole', `Route functions of ${this.node.path}`) : undefined;
    if (role && props.routes.some(isSnapshotRoute)) props.cutoverSnapshot!.workflow.grantStart(role);
    let cardRole: iam.Role | undefined;
    if (props.routes.some(isCardRoute)) {
      cardRole = routeRole('CardProcessorRole', `Card processor routes of ${this.node.path}`);
      props.cardProcessor.secret?.grantRead(cardRole);
    }
    const cardEnvironment: Record<string, string> = props.cardProcessor.secret ? { STRIPE_SECRET_ARN: props.cardProcessor.secret.secretArn } : {};

    for (const route of props.routes) {
      const card = isCardRoute(route);
      const environment = {
        ...props.environment,
        ...(card ? cardEnvironment : {}),
        ...(isSnapshotRoute(route) ? props.cutoverSnapshot!.environment : {}),
      };
      const constructId = constructIdOf(route.id);
      const { function: fn } = new AppFunction(this, constructId, {
        code: props.code.code(route.key),
        description: `${route.method} ${route.path} (${route.id})`,
        role: card ? cardRole! : role!,
        network: card ? props.cardProcessor.network : props.network,
        logging: props.logging,
        environment,
      });
      const provisioned = props.provisionedConcurrency[route.id];
      // With provisioned concurrency, API Gateway calls an alias whose environments stay initialised.
      const target: lambda.IFunction = provisioned
        ? new lambda.Alias(this, `${constructId}Live`, { aliasName: 'live', version: fn.currentVersion, provisionedConcurrentExecutions: provisioned })
        : fn;
      target.addPermission('ApiGatewayInvoke', {
        principal: new iam.ServicePrincipal('apigateway.amazonaws.com'),
        // Only this method of this stage may invoke the function (no test-invoke permission).
        sourceArn: Stack.of(this).formatArn({
          service: 'execute-api',
          resource: props.api.restApi.restApiId,
          resourceName: `${props.api.stageName}/${route.method}${arnPathOf(route.path)}`,
          arnFormat: ArnFormat.SLASH_RESOURCE_NAME,
        }),
      });
      props.api.addRoute(this, `${constructId}Method`, route, target);
      this.functions.set(route.key, fn);
    }

    // Every path of the area answers the methods it lacks with 405 (an area holds all the routes of its paths).
    const methodsByPath = new Map<string, string[]>();
    for (const route of props.routes) methodsByPath.set(route.path, [...(methodsByPath.get(route.path) ?? []), route.method]);
    for (const [path, methods] of methodsByPath) props.api.addMethodNotAllowed(this, `${constructIdOf(path)}MethodNotAllowed`, path, methods);
  }
}
