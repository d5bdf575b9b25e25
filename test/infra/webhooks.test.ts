/**
 * Webhook delivery on AWS and the network egress it needs: the rule from the domain bus to the
 * dispatcher, the retry schedule, the dead-letter queue, NAT per stage, which functions may reach
 * the internet, and what each webhook function may do.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROUTE_MODULES } from '../../functions/routes';
import { PROCESSOR_ROUTE_KEYS } from '../../infra/functions';
import { EVENT_SOURCE } from '../../shared/events/publisher';
import { type SynthesizedStage, nestedResources, repoRoot, resourcesOf, realStage } from './synth';

interface FunctionProps {
  Description: string;
  Timeout: number;
  Role: { 'Fn::GetAtt': [string, string] };
  Environment: { Variables: Record<string, unknown> };
  VpcConfig: { SubnetIds: unknown[]; SecurityGroupIds: unknown[] };
}
interface PolicyStatement {
  Action: string | string[];
  Resource: unknown;
  Effect: string;
}
interface PolicyProps {
  Roles: { Ref: string }[];
  PolicyDocument: { Statement: PolicyStatement[] };
}

let sandbox: SynthesizedStage;
let prod: SynthesizedStage;

beforeAll(() => {
  sandbox = realStage('sandbox');
  prod = realStage('prod');
});

const logicalIdOf = (stage: SynthesizedStage, type: string, description: RegExp): string => {
  const found = Object.entries(stage.webhooks.findResources(type)).filter(([, resource]) =>
    description.test(String((resource as { Properties: { Description?: string } }).Properties.Description)),
  );
  expect(found, String(description)).toHaveLength(1);
  return found[0][0];
};
const functionOf = (stage: SynthesizedStage, description: RegExp): FunctionProps => {
  const id = logicalIdOf(stage, 'AWS::Lambda::Function', description);
  return (stage.webhooks.toJSON() as { Resources: Record<string, { Properties: FunctionProps }> }).Resources[id].Properties;
};
const DISPATCHER = /^Webhook dispatcher/;
const RETRY = /^Webhook retries/;

/** Which kind of subnet a function's SubnetIds name (imported from the data stack). */
const subnetKinds = (fn: FunctionProps) =>
  new Set(
    fn.VpcConfig.SubnetIds.map((ref) => {
      const text = JSON.stringify(ref);
      return text.includes('egressSubnet') ? 'egress' : text.includes('isolatedSubnet') ? 'isolated' : text;
    }),
  );

/** The statements of the policies attached to a role, by the role's logical id. */
function statementsOfRole(stage: SynthesizedStage, roleId: string): PolicyStatement[] {
  return resourcesOf<PolicyProps>(stage.webhooks, 'AWS::IAM::Policy')
    .filter((policy) => policy.Properties.Roles.some((role) => role.Ref === roleId))
    .flatMap((policy) => policy.Properties.PolicyDocument.Statement);
}
const actionsOf = (statements: PolicyStatement[]) => statements.flatMap((statement) => [statement.Action].flat()).sort();

describe('the webhook dispatcher', () => {
  it('gets every domain event of the bus through a rule, with retries and a dead-letter queue', () => {
    const dispatcherId = logicalIdOf(sandbox, 'AWS::Lambda::Function', DISPATCHER);
    const queues = Object.keys(sandbox.webhooks.findResources('AWS::SQS::Queue', { Properties: { SqsManagedSseEnabled: true } }));
    const dlq = queues.find((id) => id.startsWith('WebhooksDeadLetters'));
    expect(dlq).toBeDefined();
    sandbox.webhooks.hasResourceProperties('AWS::Events::Rule', {
      EventBusName: Match.anyValue(),
      EventPattern: { source: [EVENT_SOURCE] },
      Targets: [
        Match.objectLike({
          Arn: { 'Fn::GetAtt': [dispatcherId, 'Arn'] },
          DeadLetterConfig: { Arn: { 'Fn::GetAtt': [dlq, 'Arn'] } },
          RetryPolicy: { MaximumRetryAttempts: 8, MaximumEventAgeInSeconds: 7200 },
        }),
      ],
    });
    expect(EVENT_SOURCE).toBe('bizops.api');
    // Only the rule may invoke the dispatcher.
    sandbox.webhooks.hasResourceProperties('AWS::Lambda::Permission', {
      FunctionName: { 'Fn::GetAtt': [dispatcherId, 'Arn'] },
      Principal: 'events.amazonaws.com',
      SourceArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^WebhooksRule'), 'Arn'] },
    });
  });

  it('sends failed asynchronous invocations to the dead-letter queue after two retries', () => {
    const dispatcherId = logicalIdOf(sandbox, 'AWS::Lambda::Function', DISPATCHER);
    sandbox.webhooks.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      FunctionName: { Ref: dispatcherId },
      MaximumRetryAttempts: 2,
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [Match.stringLikeRegexp('^WebhooksDeadLetters'), 'Arn'] } } },
    });
  });

  it('keeps its dead letters encrypted, over TLS only, for 14 days', () => {
    sandbox.webhooks.hasResourceProperties('AWS::SQS::Queue', { SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 24 * 3600 });
    sandbox.webhooks.hasResourceProperties('AWS::SQS::QueuePolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]),
      },
    });
  });

  it('knows its stage (the URL rules are stricter on prod) and bounds a run to 60 s', () => {
    expect(functionOf(prod, DISPATCHER).Environment.Variables).toMatchObject({ STAGE_NAME: 'prod', EVENT_BUS_NAME: expect.anything() });
    expect(functionOf(sandbox, DISPATCHER).Environment.Variables.STAGE_NAME).toBe('sandbox');
    expect(functionOf(sandbox, DISPATCHER).Timeout).toBe(60);
  });
});

describe('the webhook retry function', () => {
  it('runs every minute, for at most 90 s, without Lambda retries (the next run makes up for a failed one)', () => {
    const retryId = logicalIdOf(sandbox, 'AWS::Lambda::Function', RETRY);
    sandbox.webhooks.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(1 minute)',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [retryId, 'Arn'] }, RetryPolicy: { MaximumRetryAttempts: 0 } })],
    });
    expect(functionOf(sandbox, RETRY).Timeout).toBe(90);
    expect(functionOf(prod, RETRY).Environment.Variables.STAGE_NAME).toBe('prod');
  });
});

describe('least privilege', () => {
  it('lets the webhook functions read the database login, publish to the bus and write their logs, and nothing else', () => {
    for (const description of [DISPATCHER, RETRY]) {
      const fn = functionOf(sandbox, description);
      const statements = statementsOfRole(sandbox, fn.Role['Fn::GetAtt'][0]);
      const actions = actionsOf(statements);
      expect(actions.filter((action) => !action.startsWith('ec2:') && !action.startsWith('xray:')).sort(), String(description)).toEqual(
        expect.arrayContaining(['events:PutEvents', 'logs:CreateLogStream', 'logs:PutLogEvents', 'rds-db:connect']),
      );
      const allowed =
        /^(ec2:(Create|Describe|Delete|Assign|Unassign)\w+|xray:Put\w+|events:PutEvents|logs:(CreateLogStream|PutLogEvents)|rds-db:connect|sqs:(SendMessage|GetQueueAttributes|GetQueueUrl))$/;
      for (const action of actions) expect(action, String(description)).toMatch(allowed);
      expect(
        actions.some((action) => action.startsWith('dynamodb:')),
        'no idempotency table',
      ).toBe(false);
      // The only wildcard resources are the ENI and X-Ray actions, which support no resource-level permissions.
      for (const statement of statements.filter((item) => item.Resource === '*')) {
        for (const action of [statement.Action].flat()) expect(action).toMatch(/^(ec2|xray):/);
      }
      const putEvents = statements.find((statement) => [statement.Action].flat().includes('events:PutEvents'))!;
      // The domain bus of the data stack, and no other.
      expect(JSON.stringify(putEvents.Resource)).toMatch(/EventsBus\w*Arn/);
    }
    // Each may send only to its own dead-letter queue: the dispatcher to the webhooks' one (its
    // failure destination), the retry function to its scheduled job's.
    const queuesOf = (description: RegExp) =>
      statementsOfRole(sandbox, functionOf(sandbox, description).Role['Fn::GetAtt'][0])
        .filter((statement) => [statement.Action].flat().includes('sqs:SendMessage'))
        .map((statement) => JSON.stringify(statement.Resource));
    expect(queuesOf(DISPATCHER)).toEqual([expect.stringMatching(/"WebhooksDeadLetters\w+"/)]);
    expect(queuesOf(RETRY)).toEqual([expect.stringMatching(/"WebhooksWebhookRetryDeadLetters\w+"/)]);
  });
});

describe('internet egress', () => {
  it('has NAT in every stage: one per availability zone on prod, one on the sandbox', () => {
    const azs = (stage: SynthesizedStage) =>
      resourcesOf(stage.data, 'AWS::EC2::Subnet', { Properties: { Tags: Match.arrayWith([{ Key: 'aws-cdk:subnet-name', Value: 'isolated' }]) } }).length;
    prod.data.resourceCountIs('AWS::EC2::NatGateway', azs(prod));
    expect(azs(prod)).toBeGreaterThanOrEqual(2);
    sandbox.data.resourceCountIs('AWS::EC2::NatGateway', 1);
    for (const stage of [sandbox, prod]) {
      stage.data.resourceCountIs('AWS::EC2::InternetGateway', 1);
      // The public subnets hold the NAT gateways only: nothing launched there gets a public address.
      for (const subnet of resourcesOf<{ MapPublicIpOnLaunch: boolean }>(stage.data, 'AWS::EC2::Subnet', {
        Properties: { Tags: Match.arrayWith([{ Key: 'aws-cdk:subnet-name', Value: 'public' }]) },
      })) {
        expect(subnet.Properties.MapPublicIpOnLaunch).toBe(false);
      }
    }
  });

  it('routes the egress subnets to the internet through NAT, and the isolated subnets nowhere', () => {
    const routes = resourcesOf<{ DestinationCidrBlock: string; NatGatewayId?: unknown; GatewayId?: unknown; RouteTableId: { Ref: string } }>(
      sandbox.data,
      'AWS::EC2::Route',
    ).map((route) => route.Properties);
    const defaultRoutes = routes.filter((route) => route.DestinationCidrBlock === '0.0.0.0/0');
    const via = (prefix: string) => defaultRoutes.filter((route) => route.RouteTableId.Ref.includes(prefix));
    expect(via('egressSubnet').length).toBeGreaterThanOrEqual(2);
    for (const route of via('egressSubnet')) expect(route.NatGatewayId).toBeDefined();
    for (const route of via('publicSubnet')) expect(route.GatewayId).toBeDefined();
    expect(via('isolatedSubnet')).toEqual([]);
  });

  it('puts the dispatcher, the retry function and the card processor routes in the egress subnets, every other function in the isolated ones', () => {
    for (const stage of [sandbox, prod]) {
      expect(subnetKinds(functionOf(stage, DISPATCHER))).toEqual(new Set(['egress']));
      expect(subnetKinds(functionOf(stage, RETRY))).toEqual(new Set(['egress']));
      const routeFunctions = nestedResources<FunctionProps>(stage, 'AWS::Lambda::Function').map((fn) => fn.Properties);
      const inEgress = routeFunctions.filter((fn) => subnetKinds(fn).has('egress'));
      expect(inEgress.map((fn) => fn.Description.split(' ')[0] + ' ' + fn.Description.split(' ')[1]).sort()).toEqual(
        [
          'DELETE /v1/accounts/{id}/payment-methods/{payment_method_id}',
          'POST /v1/accounts/{id}/payment-methods',
          'POST /v1/accounts/{id}/payment-methods/attach',
        ].sort(),
      );
      for (const fn of routeFunctions.filter((item) => !inEgress.includes(item))) expect(subnetKinds(fn)).toEqual(new Set(['isolated']));
      const platform = resourcesOf<FunctionProps>(stage.api, 'AWS::Lambda::Function')
        .map((fn) => fn.Properties)
        // The usage-key sync calls the API Gateway management API (test/infra/operations.test.ts).
        .filter((fn) => fn.VpcConfig && !DISPATCHER.test(fn.Description) && !RETRY.test(fn.Description) && !/^Gives new API keys/.test(fn.Description));
      expect(platform.length).toBeGreaterThan(2);
      for (const fn of platform) expect(subnetKinds(fn), fn.Description).toEqual(new Set(['isolated']));
    }
  });

  it('names exactly the route modules that call the card processor', () => {
    const callers = Object.keys(ROUTE_MODULES).filter(
      (key) => !key.startsWith('test_helpers/') && readFileSync(join(repoRoot, 'functions', `${key}.ts`), 'utf8').includes('payments/select-processor'),
    );
    expect(callers.sort()).toEqual([...PROCESSOR_ROUTE_KEYS].sort());
  });
});
