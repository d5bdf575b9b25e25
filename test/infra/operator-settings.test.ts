/**
 * What the operator decides and the templates must honour: the card processor's secret (checked at
 * deploy, read by the card routes alone), the account-wide API Gateway setting (optional), and
 * provisioned concurrency for chosen routes (none by default).
 */
import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { PROCESSOR_ROUTE_KEYS } from '../../infra/functions';
import type { RouteSpec } from '../../infra/routes';
import { nestedResources, realRoutes, realStage, resourcesOf, type SynthesizedStage, synthStage, TEST_ALARM_EMAIL } from './synth';

interface PolicyProps {
  Roles: { Ref: string }[];
  PolicyDocument: { Statement: { Action: string | string[]; Resource: unknown }[] };
}
interface FunctionProps {
  Description: string;
  Role: { 'Fn::GetAtt': [string, string] };
}

let sandbox: SynthesizedStage;
let prod: SynthesizedStage;

beforeAll(() => {
  sandbox = realStage('sandbox');
  prod = realStage('prod');
});

const cardRouteDescriptions = () =>
  realRoutes()
    .filter((route) => PROCESSOR_ROUTE_KEYS.has(route.key))
    .map((route) => `${route.method} ${route.path} (${route.id})`)
    .sort();

describe("the card processor's secret", () => {
  it('is checked at deploy: prod puts a resource policy on it by name, which fails the deploy when it does not exist', () => {
    prod.api.resourceCountIs('AWS::SecretsManager::ResourcePolicy', 1);
    prod.api.hasResourceProperties('AWS::SecretsManager::ResourcePolicy', {
      SecretId: 'bizops/prod/stripe',
      BlockPublicPolicy: true,
      ResourcePolicy: {
        Statement: [
          Match.objectLike({
            Effect: 'Deny',
            Principal: '*',
            Action: 'secretsmanager:*',
            Condition: { StringNotEquals: { 'aws:PrincipalAccount': { Ref: 'AWS::AccountId' } } },
          }),
        ],
      },
    });
    // The sandbox's processor keeps no secret.
    sandbox.api.resourceCountIs('AWS::SecretsManager::ResourcePolicy', 0);
  });

  it("is checked before the card routes' stack deploys", () => {
    const checkId = Object.keys(prod.api.findResources('AWS::SecretsManager::ResourcePolicy'))[0];
    const stacks = prod.api.findResources('AWS::CloudFormation::Stack') as Record<string, { DependsOn?: string[] }>;
    const waiting = Object.entries(stacks).filter(([, stack]) => stack.DependsOn?.includes(checkId));
    expect(waiting.map(([id]) => id)).toEqual([expect.stringMatching(/^RoutesAccounts/)]);
  });

  it('is readable by the functions that charge cards and no other', () => {
    const readers: string[] = [];
    for (const template of [prod.api, prod.webhooks, prod.scheduledJobs, ...prod.routeStacks]) {
      const functions = resourcesOf<FunctionProps>(template, 'AWS::Lambda::Function');
      for (const policy of resourcesOf<PolicyProps>(template, 'AWS::IAM::Policy')) {
        const grants = policy.Properties.PolicyDocument.Statement.filter((statement) => JSON.stringify(statement.Resource).includes('bizops/prod/stripe'));
        if (!grants.length) continue;
        expect(grants.flatMap((statement) => [statement.Action].flat()).sort()).toEqual(['secretsmanager:DescribeSecret', 'secretsmanager:GetSecretValue']);
        const roles = policy.Properties.Roles.map((role) => role.Ref);
        readers.push(...functions.filter((fn) => roles.includes(fn.Properties.Role['Fn::GetAtt'][0])).map((fn) => fn.Properties.Description));
      }
    }
    expect(readers.sort()).toEqual(cardRouteDescriptions());
    expect(readers).toHaveLength(PROCESSOR_ROUTE_KEYS.size);
  });
});

describe('the account-wide API Gateway logging role (its stack by default: test/infra/operations.test.ts)', () => {
  const oneRoute: RouteSpec[] = [{ key: 'locations/get-location', id: 'locations.get', method: 'GET', path: '/v1/locations/{id}', auth: 'api_key' }];

  it('is left alone with manageApiGatewayAccount=false: no account stack, nothing depends on one, execution logs still on', () => {
    const kept = synthStage({ stage: 'prod', routes: oneRoute, settings: { alarmEmail: TEST_ALARM_EMAIL, manageApiGatewayAccount: false } });
    try {
      expect(kept.stacks.account).toBeUndefined();
      expect(kept.account).toBeUndefined();
      expect(kept.stacks.api.node.root.node.tryFindChild('BizOps-ApiGatewayAccount')).toBeUndefined();
      expect(kept.stacks.api.dependencies.map((stack) => stack.stackName)).toEqual(['BizOps-prod-Data']);
      kept.api.resourceCountIs('AWS::ApiGateway::Account', 0);
      kept.api.hasResourceProperties('AWS::ApiGateway::Stage', { MethodSettings: [Match.objectLike({ LoggingLevel: 'ERROR' })] });
    } finally {
      kept.cleanup();
    }
  });
});

describe('provisioned concurrency', () => {
  it('is off by default: no route function has an alias', () => {
    expect(nestedResources(prod, 'AWS::Lambda::Alias')).toEqual([]);
    expect(nestedResources(sandbox, 'AWS::Lambda::Alias')).toEqual([]);
  });

  it('keeps the routes the stage config names warm, behind an alias their method calls and may invoke', () => {
    const routes: RouteSpec[] = [
      { key: 'locations/get-location', id: 'locations.get', method: 'GET', path: '/v1/locations/{id}', auth: 'api_key' },
      { key: 'locations/list-locations', id: 'locations.list', method: 'GET', path: '/v1/locations', auth: 'api_key' },
    ];
    const warm = synthStage({
      stage: 'prod',
      routes,
      configure: (config) => ({ ...config, api: { ...config.api, provisionedConcurrency: { 'locations.get': 3 } } }),
    });
    try {
      const [area] = warm.routeStacks;
      const aliases = Object.entries(area.findResources('AWS::Lambda::Alias'));
      expect(aliases).toHaveLength(1);
      const [aliasId, alias] = aliases[0] as [string, { Properties: { Name: string; ProvisionedConcurrencyConfig: unknown; FunctionName: { Ref: string } } }];
      expect(alias.Properties).toMatchObject({ Name: 'live', ProvisionedConcurrencyConfig: { ProvisionedConcurrentExecutions: 3 } });
      const warmFunction = resourcesOf<{ Description: string }>(area, 'AWS::Lambda::Function').find((fn) =>
        Object.keys(area.findResources('AWS::Lambda::Function', { Properties: { Description: fn.Properties.Description } })).includes(
          alias.Properties.FunctionName.Ref,
        ),
      );
      expect(warmFunction?.Properties.Description).toBe('GET /v1/locations/{id} (locations.get)');
      // The method integrates with the alias, and the alias (not the bare function) lets API Gateway in.
      const methods = resourcesOf<{ OperationName: string; Integration: { Uri: unknown } }>(area, 'AWS::ApiGateway::Method');
      const get = methods.find((method) => method.Properties.OperationName === 'locations.get')!;
      const list = methods.find((method) => method.Properties.OperationName === 'locations.list')!;
      expect(JSON.stringify(get.Properties.Integration.Uri)).toContain(aliasId);
      expect(JSON.stringify(list.Properties.Integration.Uri)).not.toContain(aliasId);
      area.hasResourceProperties('AWS::Lambda::Permission', { FunctionName: { Ref: aliasId }, Principal: 'apigateway.amazonaws.com' });
      expect(warm.nag.violations.filter((violation) => violation.severity === 'error')).toEqual([]);
    } finally {
      warm.cleanup();
    }
  });

  it('refuses a route id that is not in the route table', () => {
    expect(() =>
      synthStage({
        stage: 'sandbox',
        routes: [{ key: 'locations/get-location', id: 'locations.get', method: 'GET', path: '/v1/locations/{id}', auth: 'api_key' }],
        configure: (config) => ({ ...config, api: { ...config.api, provisionedConcurrency: { 'orders.nope': 1 } } }),
      }),
    ).toThrow('api.provisionedConcurrency names routes that do not exist: orders.nope');
  });
});
