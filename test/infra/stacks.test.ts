import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { MIN_COMPRESSION_BYTES } from '../../infra/constructs/api';
import { MIN_COMPRESSION_SIZE } from '../../local/compression';
import { ERROR_CATALOG, errorKey, type ErrorCode } from '../../shared/errors';
import { ERROR_STATUS } from '../../shared/http/error-status';
import { type SynthesizedStage, nestedResources, realRoutes, resourcesOf, realStage } from './synth';

/** The properties of the resources these tests read, as far as they read them. */
interface FunctionProps {
  Description: string;
  Environment: { Variables: Record<string, unknown> };
  LoggingConfig: { LogGroup?: unknown };
  VpcConfig: { SecurityGroupIds: unknown };
}
interface MethodProps {
  HttpMethod: string;
  OperationName: string;
  AuthorizationType: string;
  AuthorizerId?: unknown;
  Integration: unknown;
  RequestValidatorId?: unknown;
}
interface MethodNotAllowedProps {
  Integration: {
    IntegrationResponses: {
      StatusCode: string;
      SelectionPattern?: string;
      ResponseParameters: Record<string, string>;
      ResponseTemplates: Record<string, string>;
    }[];
  };
  MethodResponses: { StatusCode: string }[];
}
interface PermissionProps {
  SourceArn: { 'Fn::Join': [string, unknown[]] };
}
interface GatewayResponseProps {
  ResponseType: string;
  StatusCode?: string;
  ResponseTemplates: Record<string, string>;
  ResponseParameters: Record<string, string>;
}

const routes = realRoutes();
/** The routes that call the card processor (infra/functions.ts: PROCESSOR_ROUTE_KEYS), as their functions' descriptions begin. */
const CARD_ROUTES = [
  'DELETE /v1/accounts/{id}/payment-methods/{payment_method_id} ',
  'POST /v1/accounts/{id}/payment-methods ',
  'POST /v1/accounts/{id}/payment-methods/attach ',
];
let sandbox: SynthesizedStage;
let prod: SynthesizedStage;

beforeAll(() => {
  sandbox = realStage('sandbox');
  prod = realStage('prod');
});

const authorizerFunctionProps = (stage: SynthesizedStage) => {
  const found = resourcesOf<FunctionProps>(stage.api, 'AWS::Lambda::Function', { Properties: { Description: Match.stringLikeRegexp('REQUEST authorizer') } });
  expect(found).toHaveLength(1);
  return found[0].Properties;
};

describe('stacks', () => {
  it('are named per stage and env-agnostic, with one API Gateway account stack for every stage', () => {
    expect(sandbox.stacks.data.stackName).toBe('BizOps-sandbox-Data');
    expect(sandbox.stacks.api.stackName).toBe('BizOps-sandbox-Api');
    expect(prod.stacks.data.stackName).toBe('BizOps-prod-Data');
    expect(sandbox.stacks.account!.stackName).toBe('BizOps-ApiGatewayAccount');
    expect(prod.stacks.account!.stackName).toBe('BizOps-ApiGatewayAccount');
    for (const stack of [sandbox.stacks.account!, sandbox.stacks.data, sandbox.stacks.api, prod.stacks.data, prod.stacks.api]) {
      expect(stack.environment).toBe('aws://unknown-account/unknown-region');
    }
  });

  it('keep every stack and nested stack under the CloudFormation limit of 500 resources', () => {
    for (const stage of [sandbox, prod]) {
      for (const [path, count] of Object.entries(stage.resourceCounts)) expect(count, path).toBeLessThan(500);
    }
  });

  it('pass cdk-nag AwsSolutions with no unacknowledged error', () => {
    for (const stage of [sandbox, prod]) {
      const errors = stage.nag.violations.filter((violation) => violation.severity === 'error');
      expect(errors.map((violation) => `${violation.ruleName}: ${violation.violatingResources.map((r) => r.constructPath).join(', ')}`)).toEqual([]);
    }
  });
});

describe('authorizer', () => {
  it('uses only the Authorization header as identity source, cached for the stage TTL', () => {
    sandbox.api.resourceCountIs('AWS::ApiGateway::Authorizer', 1);
    sandbox.api.hasResourceProperties('AWS::ApiGateway::Authorizer', {
      Type: 'REQUEST',
      IdentitySource: 'method.request.header.Authorization',
      AuthorizerResultTtlInSeconds: 60,
    });
  });

  it('accepts test keys only in the sandbox and live and test keys in prod', () => {
    expect(authorizerFunctionProps(sandbox).Environment.Variables.ACCEPTED_KEY_MODES).toBe('test');
    expect(authorizerFunctionProps(prod).Environment.Variables.ACCEPTED_KEY_MODES).toBe('live,test');
  });

  it('opens its database connection while it initialises', () => {
    expect(authorizerFunctionProps(prod).Environment.Variables.DATABASE_CONNECT_DURING_INIT).toBe('true');
  });
});

describe('API methods', () => {
  const allMethodsOf = (stage: SynthesizedStage) => nestedResources<MethodProps>(stage, 'AWS::ApiGateway::Method').map((method) => method.Properties);
  /** The routes' methods; ANY is each path's 405 (below). */
  const methodsOf = (stage: SynthesizedStage) => allMethodsOf(stage).filter((method) => method.HttpMethod !== 'ANY');

  it('exist once per route', () => {
    const operations = methodsOf(sandbox).map((method) => `${method.HttpMethod} ${method.OperationName}`);
    expect(operations.sort()).toEqual(routes.map((route) => `${route.method} ${route.id}`).sort());
  });

  it('put the custom authorizer on every api_key route and none on public routes', () => {
    const byOperation = new Map(methodsOf(sandbox).map((method) => [method.OperationName, method]));
    for (const route of routes) {
      const method = byOperation.get(route.id)!;
      if (route.auth === 'api_key') {
        expect(method.AuthorizationType, route.id).toBe('CUSTOM');
        expect(method.AuthorizerId, route.id).toEqual({ Ref: expect.stringMatching(/ApiKeyAuthorizer/) });
      } else {
        expect(method.AuthorizationType, route.id).toBe('NONE');
        expect(method.AuthorizerId, route.id).toBeUndefined();
      }
    }
    expect(byOperation.get('platform.openapi')?.AuthorizationType).toBe('NONE');
  });

  it('row 7: answer a method a path lacks with 405 method_not_allowed, its Allow header and allow member listing the methods it has', () => {
    const anyMethods = allMethodsOf(sandbox).filter((method) => method.HttpMethod === 'ANY') as unknown as (MethodProps & MethodNotAllowedProps)[];
    const pathsWithRoutes = new Set(routes.map((route) => route.path));
    expect(anyMethods).toHaveLength(pathsWithRoutes.size);
    const render = (template: string) =>
      template.replaceAll('$context.requestId', 'req-405').replaceAll('$context.domainName', 'api.example').replaceAll('$context.stage', 'sandbox');
    const allows = new Set<string>();
    for (const method of anyMethods) {
      expect(method.AuthorizationType).toBe('NONE');
      expect(method.Integration).toMatchObject({ Type: 'MOCK', PassthroughBehavior: 'WHEN_NO_TEMPLATES' });
      // No request template: the body and its content type never decide the answer.
      expect(method.Integration).not.toHaveProperty('RequestTemplates');
      // The only integration response is the default one (no SelectionPattern): whatever the mock says, the answer is the 405.
      const [response] = method.Integration.IntegrationResponses;
      expect(method.Integration.IntegrationResponses).toHaveLength(1);
      expect(response.SelectionPattern).toBeUndefined();
      expect(response.StatusCode).toBe('405');
      expect(method.MethodResponses).toEqual([expect.objectContaining({ StatusCode: '405' })]);
      const allow = response.ResponseParameters['method.response.header.Allow'];
      expect(response.ResponseParameters['method.response.header.Request-Id']).toBe('context.requestId');
      const body = JSON.parse(render(response.ResponseTemplates['application/json'])) as Record<string, unknown>;
      expect(body).toMatchObject({ error: 'method_not_allowed', code: 'method_not_allowed', type: 'validation_error', request_id: 'req-405' });
      expect(body.doc_url).toBe('https://api.example/sandbox/docs#error-method_not_allowed');
      expect(`'${(body.allow as string[]).join(', ')}'`).toBe(allow);
      allows.add(allow);
    }
    // /v1/accounts has GET and POST: the Allow of its ANY names both (the PUT /v1/accounts).
    const accounts = routes.filter((route) => route.path === '/v1/accounts').map((route) => route.method);
    expect(allows).toContain(`'${accounts.sort().join(', ')}'`);
  });

  it('proxy to Lambda with a request validator', () => {
    for (const method of methodsOf(sandbox)) {
      expect(method.Integration).toMatchObject({ Type: 'AWS_PROXY', IntegrationHttpMethod: 'POST' });
      expect(method.RequestValidatorId).toBeDefined();
    }
  });
});

describe('route functions', () => {
  const routeFunctions = (stage: SynthesizedStage) => nestedResources<FunctionProps>(stage, 'AWS::Lambda::Function').map((fn) => fn.Properties);

  it('exist once per route, on nodejs22.x arm64 with tracing, 512 MB and 29 s', () => {
    const functions = routeFunctions(sandbox);
    expect(functions).toHaveLength(routes.length);
    for (const fn of functions) {
      expect(fn).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        TracingConfig: { Mode: 'Active' },
        MemorySize: 512,
        Timeout: 29,
        Handler: 'index.handler',
      });
      expect(fn.LoggingConfig.LogGroup).toBeDefined();
    }
    const descriptions = functions.map((fn) => fn.Description).sort();
    expect(descriptions).toEqual(routes.map((route) => `${route.method} ${route.path} (${route.id})`).sort());
  });

  it('get the runtime environment the shared code reads', () => {
    for (const fn of routeFunctions(prod)) {
      // The cutover snapshot route alone also learns its state machine, environment and cluster (test/infra/cutover-snapshot.test.ts).
      const cutover = fn.Description.includes('(migration.cutover_snapshot_create)')
        ? ['CUTOVER_ENV', 'CUTOVER_STATE_MACHINE_ARN', 'DB_CLUSTER_IDENTIFIER']
        : [];
      // The card routes alone learn where the card processor's keys are.
      const card = CARD_ROUTES.some((route) => fn.Description.startsWith(route)) ? ['STRIPE_SECRET_ARN'] : [];
      expect(Object.keys(fn.Environment.Variables).sort()).toEqual(
        [
          ...cutover,
          ...card,
          'ACCEPTED_KEY_MODES',
          'DATABASE_CONNECT_DURING_INIT',
          'DATABASE_POOL_MAX',
          'DB_HOST',
          'DB_NAME',
          'DB_PORT',
          'DB_USER',
          'EVENT_BUS_NAME',
          'IDEMPOTENCY_TABLE_NAME',
          'NODE_ENV',
          'PAYMENT_PROCESSOR',
          'POWERTOOLS_METRICS_NAMESPACE',
          'POWERTOOLS_SERVICE_NAME',
          'PUBLIC_BASE_URL',
          'STAGE_NAME',
        ].sort(),
      );
      expect(fn.Environment.Variables).toMatchObject({
        NODE_ENV: 'production',
        DB_PORT: '5432',
        DB_NAME: 'bizops',
        DATABASE_POOL_MAX: '1',
        DATABASE_CONNECT_DURING_INIT: 'true',
        ACCEPTED_KEY_MODES: 'live,test',
        POWERTOOLS_SERVICE_NAME: 'bizops-api',
        POWERTOOLS_METRICS_NAMESPACE: 'BizOps',
        PAYMENT_PROCESSOR: 'stripe',
        STAGE_NAME: 'prod',
      });
      // https://<rest api id>.execute-api.<region>.<suffix>/prod: the stage's root, for doc_url and the document's server.
      const joined = JSON.stringify(fn.Environment.Variables.PUBLIC_BASE_URL);
      expect(joined).toMatch(/^\{"Fn::Join":\["",\["https:\/\/",/);
      expect(joined).toContain('".execute-api."');
      expect(joined).toMatch(/"\/prod"\]\]\}$/);
    }
  });

  it('log in to the proxy as bizops_app with IAM, and only the migration step reads the database secrets', () => {
    type PolicyProps = { Roles: unknown[]; PolicyDocument: { Statement: { Action: string | string[]; Resource: unknown }[] } };
    const templates = [sandbox.api, ...sandbox.routeStacks, sandbox.webhooks, sandbox.scheduledJobs];
    const statements = templates.flatMap((template) =>
      resourcesOf<PolicyProps>(template, 'AWS::IAM::Policy').flatMap((policy) =>
        policy.Properties.PolicyDocument.Statement.map((statement) => ({ roles: JSON.stringify(policy.Properties.Roles), statement })),
      ),
    );
    const granting = (action: string) => statements.filter(({ statement }) => [statement.Action].flat().includes(action));
    const connects = granting('rds-db:connect');
    // Every route stack's role, the authorizer, the admin function, the jobs, the webhook functions and the snapshot task.
    expect(connects.length).toBeGreaterThanOrEqual(sandbox.routeStacks.length + 5);
    for (const { statement } of connects) {
      const resource = JSON.stringify(statement.Resource);
      expect(resource).toContain(':dbuser:');
      expect(resource).toMatch(/\/bizops_app"/);
    }
    const secretReaders = granting('secretsmanager:GetSecretValue').map(({ roles }) => roles);
    expect(secretReaders.length).toBeGreaterThan(0);
    for (const roles of secretReaders) expect(roles).toMatch(/Migration/);
    for (const fn of routeFunctions(sandbox)) expect(fn.Environment.Variables).not.toHaveProperty('DB_SECRET_ARN');
  });

  it('share one security group, and one role per area stack (the card routes one of their own)', () => {
    const functions = routeFunctions(sandbox);
    const groups = new Set(functions.map((fn) => JSON.stringify(fn.VpcConfig.SecurityGroupIds)));
    expect(groups.size).toBe(1);
    const roles = sandbox.routeStacks.map((template) => Object.keys(template.findResources('AWS::IAM::Role')).length);
    expect(roles.filter((count) => count === 2)).toHaveLength(1);
    expect(roles.filter((count) => count !== 1 && count !== 2)).toEqual([]);
  });

  it('may be invoked only by their own method on the stage (no test-invoke permission)', () => {
    const permissions = nestedResources<PermissionProps>(sandbox, 'AWS::Lambda::Permission').map((permission) => permission.Properties);
    expect(permissions).toHaveLength(routes.length);
    const sourceArnTails = permissions.map((permission) => permission.SourceArn['Fn::Join'][1].at(-1) as string).sort();
    expect(sourceArnTails).toEqual(routes.map((route) => `/sandbox/${route.method}${route.path.replace(/\{[^}]+\}/g, '*')}`).sort());
  });

  it('wait for the database migration', () => {
    // The route and webhook stacks run code against the schema; the alarms' stack (Operations) does not.
    const nestedStackResources = Object.entries(sandbox.api.findResources('AWS::CloudFormation::Stack'))
      .filter(([logicalId]) => !logicalId.startsWith('Operations'))
      .map(([, resource]) => resource as { DependsOn?: string[] });
    expect(nestedStackResources.length).toBeGreaterThan(0);
    const migration = Object.keys(sandbox.api.findResources('Custom::BizOpsDatabaseMigrations'));
    expect(migration).toHaveLength(1);
    for (const nested of nestedStackResources) expect(nested.DependsOn).toContain(migration[0]);
  });
});

describe('compression', () => {
  it('makes API Gateway compress responses from the size the local gateway compresses from', () => {
    for (const stage of [sandbox, prod]) {
      stage.api.hasResourceProperties('AWS::ApiGateway::RestApi', { MinimumCompressionSize: MIN_COMPRESSION_BYTES });
    }
    expect(MIN_COMPRESSION_BYTES).toBe(MIN_COMPRESSION_SIZE);
  });
});

describe('gateway responses', () => {
  const render = (template: string) =>
    template
      .replaceAll('$context.requestId', 'req-123')
      .replaceAll('$context.domainName', 'abc123.execute-api.eu-west-1.amazonaws.com')
      .replaceAll('$context.stage', 'sandbox')
      .replaceAll('$context.authorizer.errorCode', 'api_key_revoked')
      .replaceAll('$context.authorizer.errorHint', ERROR_CATALOG.api_key_revoked.hint)
      .replaceAll('$context.error.messageString', JSON.stringify('Invalid request body'));

  const responses = () =>
    new Map(
      resourcesOf<GatewayResponseProps>(sandbox.api, 'AWS::ApiGateway::GatewayResponse').map((response) => [
        response.Properties.ResponseType,
        response.Properties,
      ]),
    );

  it('rewrite gateway errors into the error envelope with the request id', () => {
    const all = responses();
    const expected: Record<string, { status?: string; body: Record<string, string> }> = {
      UNAUTHORIZED: { status: '401', body: { error: 'authentication_failed', code: 'api_key_missing', type: 'permission_error' } },
      ACCESS_DENIED: {
        status: '401',
        body: { error: 'authentication_failed', code: 'api_key_revoked', type: 'permission_error', hint: ERROR_CATALOG.api_key_revoked.hint },
      },
      MISSING_AUTHENTICATION_TOKEN: { status: '404', body: { error: 'route_not_found', code: 'route_not_found', type: 'not_found' } },
      THROTTLED: { status: '429', body: { error: 'rate_limit_exceeded', code: 'rate_limit_exceeded', type: 'rate_limit' } },
      AUTHORIZER_FAILURE: { status: '503', body: { error: 'service_unavailable', code: 'service_unavailable', type: 'internal' } },
      AUTHORIZER_CONFIGURATION_ERROR: { status: '503', body: { error: 'service_unavailable', code: 'service_unavailable', type: 'internal' } },
      DEFAULT_4XX: { body: { code: 'parameter_invalid', type: 'validation_error', hint: 'Invalid request body' } },
      DEFAULT_5XX: { body: { code: 'internal_error', type: 'internal' } },
    };
    for (const [type, { status, body }] of Object.entries(expected)) {
      const response = all.get(type);
      expect(response, type).toBeDefined();
      expect(response!.StatusCode, type).toBe(status);
      const rendered = JSON.parse(render(response!.ResponseTemplates['application/json'])) as Record<string, unknown>;
      expect(Object.keys(rendered).sort(), type).toEqual(['code', 'doc_url', 'error', 'hint', 'request_id', 'type']);
      expect(rendered, type).toMatchObject({ ...body, request_id: 'req-123' });
      // The stage's own reference page, at the code's anchor (as the functions' PUBLIC_BASE_URL makes it).
      expect(rendered.doc_url, type).toBe(`https://abc123.execute-api.eu-west-1.amazonaws.com/sandbox/docs#error-${String(rendered.code)}`);
      expect(rendered.hint, type).not.toBe('');
    }
  });

  it('send JSON with a Request-Id header, and Retry-After on 429 and 503', () => {
    for (const [type, response] of responses()) {
      expect(response.ResponseParameters, type).toMatchObject({
        'gatewayresponse.header.Content-Type': "'application/json'",
        'gatewayresponse.header.Request-Id': 'context.requestId',
      });
    }
    for (const type of ['THROTTLED', 'AUTHORIZER_FAILURE', 'AUTHORIZER_CONFIGURATION_ERROR']) {
      expect(responses().get(type)!.ResponseParameters['gatewayresponse.header.Retry-After'], type).toBe("'1'");
    }
  });

  it('can carry every code the authorizer denies with, verbatim', () => {
    // ACCESS_DENIED hard-codes error/type and inserts the hint unescaped (gateway response
    // templates do no escaping), so every 401 code must share them and have a JSON-safe hint.
    const denyCodes = Object.entries(ERROR_CATALOG).filter(([code]) => ERROR_STATUS[code as ErrorCode] === 401);
    expect(denyCodes.length).toBeGreaterThan(1);
    for (const [code, entry] of denyCodes) {
      expect(errorKey(code as ErrorCode), code).toBe('authentication_failed');
      expect(entry.type, code).toBe('permission_error');
      // eslint-disable-next-line no-control-regex -- on purpose: a hint with a control character (U+0000 to U+001F) is not JSON-safe
      expect(entry.hint, code).not.toMatch(/["\\$#]|[\u0000-\u001f]/);
    }
  });
});

describe('stage', () => {
  it('logs access as JSON, execution errors, traces and throttles per stage config', () => {
    sandbox.api.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: 'sandbox',
      TracingEnabled: true,
      AccessLogSetting: { Format: Match.stringLikeRegexp('^\\{"requestId":"\\$context.requestId"') },
      MethodSettings: [Match.objectLike({ LoggingLevel: 'ERROR', ThrottlingRateLimit: 25, ThrottlingBurstLimit: 50, HttpMethod: '*', ResourcePath: '/*' })],
    });
    prod.api.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: 'prod',
      MethodSettings: [Match.objectLike({ ThrottlingRateLimit: 200, ThrottlingBurstLimit: 400 })],
    });
  });

  it('has a usage plan per tier of stage config, each bound to the stage (per-key limits: test/infra/operations.test.ts)', () => {
    prod.api.resourceCountIs('AWS::ApiGateway::UsagePlan', 2);
    prod.api.hasResourceProperties('AWS::ApiGateway::UsagePlan', {
      UsagePlanName: 'bizops-prod-standard',
      Throttle: { RateLimit: 25, BurstLimit: 50 },
      ApiStages: [Match.objectLike({ Stage: Match.anyValue() })],
    });
  });

  it('runs the outbox sweeper every minute and the recurring journal entries daily', () => {
    sandbox.scheduledJobs.hasResourceProperties('AWS::Events::Rule', { ScheduleExpression: 'rate(1 minute)' });
    sandbox.scheduledJobs.hasResourceProperties('AWS::Events::Rule', { ScheduleExpression: 'cron(15 0 * * ? *)' });
  });

  it('runs the vendor credit expiry job and the quote expiry job hourly, each with a dead-letter queue', () => {
    for (const [template, description] of [
      [sandbox.scheduledJobs, 'Forfeits the remaining balance of vendor credits past expires_at (hourly)'],
      [sandbox.scheduledJobs, 'Records order.expired once for each quote past expires_at (hourly)'],
    ] as const) {
      const functions = Object.entries(template.findResources('AWS::Lambda::Function', { Properties: { Description: description } }));
      expect(functions, description).toHaveLength(1);
      const [functionId, fn] = functions[0] as [string, { Properties: { DeadLetterConfig?: { TargetArn: { 'Fn::GetAtt': [string, string] } } } }];
      const queueId = fn.Properties.DeadLetterConfig?.TargetArn['Fn::GetAtt'][0];
      expect(queueId, description).toBeDefined();
      expect(template.findResources('AWS::SQS::Queue')[queueId!], description).toBeDefined();
      // The schedule's target is the function, with the same queue for events it could not deliver.
      template.hasResourceProperties('AWS::Events::Rule', {
        Description: description,
        ScheduleExpression: 'rate(1 hour)',
        Targets: [
          Match.objectLike({
            Arn: { 'Fn::GetAtt': [functionId, 'Arn'] },
            DeadLetterConfig: { Arn: { 'Fn::GetAtt': [queueId, 'Arn'] } },
            RetryPolicy: Match.objectLike({ MaximumRetryAttempts: 2 }),
          }),
        ],
      });
    }
  });
});

describe('data stack', () => {
  it('stores idempotency records by id with TTL on expiration, on demand, with PITR', () => {
    sandbox.data.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
      TimeToLiveSpecification: { AttributeName: 'expiration', Enabled: true },
      BillingMode: 'PAY_PER_REQUEST',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      SSESpecification: { SSEEnabled: true },
    });
  });

  it('puts RDS Proxy in front of Aurora with TLS required and both logins registered', () => {
    sandbox.data.hasResourceProperties('AWS::RDS::DBProxy', {
      RequireTLS: true,
      EngineFamily: 'POSTGRESQL',
      Auth: Match.arrayWith([Match.objectLike({ AuthScheme: 'SECRETS' })]),
    });
    const proxy = resourcesOf<{ Auth: { IAMAuth: string }[] }>(sandbox.data, 'AWS::RDS::DBProxy')[0];
    expect(proxy.Properties.Auth).toHaveLength(2);
    // Clients log in with IAM tokens only; the secrets are the proxy's own way into Aurora.
    expect(proxy.Properties.Auth.map((auth) => auth.IAMAuth)).toEqual(['REQUIRED', 'REQUIRED']);
    sandbox.data.hasResourceProperties('AWS::SecretsManager::Secret', {
      GenerateSecretString: Match.objectLike({ SecretStringTemplate: Match.stringLikeRegexp('"username":"bizops_app"') }),
    });
    // Both logins rotate every 30 days: no function holds either password.
    const rotations = resourcesOf<{ RotationRules: { ScheduleExpression: string } }>(sandbox.data, 'AWS::SecretsManager::RotationSchedule');
    expect(rotations.map((rotation) => rotation.Properties.RotationRules.ScheduleExpression)).toEqual(['rate(30 days)', 'rate(30 days)']);
  });

  it('runs Aurora PostgreSQL 16 Serverless v2, encrypted, IAM auth, logs exported', () => {
    for (const stage of [sandbox, prod]) {
      stage.data.hasResourceProperties('AWS::RDS::DBCluster', {
        Engine: 'aurora-postgresql',
        EngineVersion: Match.stringLikeRegexp('^16\\.'),
        StorageEncrypted: true,
        EnableIAMDatabaseAuthentication: true,
        EnableCloudwatchLogsExports: ['postgresql'],
        ServerlessV2ScalingConfiguration: Match.objectLike({ MinCapacity: Match.anyValue() }),
      });
    }
    prod.data.hasResource('AWS::RDS::DBCluster', { DeletionPolicy: 'Snapshot', Properties: Match.objectLike({ DeletionProtection: true }) });
    sandbox.data.hasResourceProperties('AWS::RDS::DBCluster', { DeletionProtection: false });
    prod.data.hasResource('AWS::DynamoDB::Table', { DeletionPolicy: 'Retain' });
  });

  it('reaches AWS services through VPC endpoints, with flow logs (NAT only for egress: test/infra/webhooks.test.ts)', () => {
    sandbox.data.resourceCountIs('AWS::EC2::FlowLog', 1);
    const services = resourcesOf<{ ServiceName: unknown }>(sandbox.data, 'AWS::EC2::VPCEndpoint').map((endpoint) =>
      JSON.stringify(endpoint.Properties.ServiceName),
    );
    for (const service of ['dynamodb', 'events', 'secretsmanager', '.rds'])
      expect(
        services.some((name) => name.includes(service)),
        service,
      ).toBe(true);
  });

  it('lets only the function security group reach the proxy', () => {
    sandbox.data.hasResourceProperties('AWS::EC2::SecurityGroupIngress', {
      Description: 'API functions to RDS Proxy',
      FromPort: 5432,
      ToPort: 5432,
      SourceSecurityGroupId: { 'Fn::GetAtt': [Match.stringLikeRegexp('^FunctionsSecurityGroup'), 'GroupId'] },
    });
  });

  it('names the event bus after the stage', () => {
    sandbox.data.hasResourceProperties('AWS::Events::EventBus', { Name: 'bizops-sandbox' });
    prod.data.hasResourceProperties('AWS::Events::EventBus', { Name: 'bizops-prod' });
  });
});
