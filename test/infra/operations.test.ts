/**
 * What an operator needs after `cdk deploy` (issue 15), read from the synthesized templates: the
 * admin function and that nothing but IAM reaches it, the alarms and where they notify, the
 * dashboard, dead-letter queues on every scheduled job, the event archive, the WAF web ACL on
 * the stage, the availability zones of stage config, the account-wide API Gateway role created
 * once, and the optional custom domain.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, Duration, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as events from 'aws-cdk-lib/aws-events';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as iam from 'aws-cdk-lib/aws-iam';
import { beforeAll, describe, expect, it } from 'vitest';
import { auroraMaxConnections, Observability } from '../../infra/constructs/observability';
import { ScheduledJob } from '../../infra/constructs/scheduled-job';
import { adminFunctionName } from '../../functions/platform/admin-commands';
import { pendingUsageKeyValueOf } from '../../shared/auth/usage-identifier';
import { nestedResources, repoRoot, resourcesOf, type SynthesizedStage, realStage, synthStage, TEST_ALARM_EMAIL } from './synth';

interface AlarmProps {
  AlarmName: string;
  AlarmActions: unknown[];
  OKActions: unknown[];
  MetricName?: string;
  Namespace?: string;
  Threshold: number;
  TreatMissingData?: string;
  Metrics?: { Expression?: string; MetricStat?: { Metric: { MetricName: string } } }[];
}
interface FunctionProps {
  FunctionName?: string;
  Description: string;
  VpcConfig?: unknown;
  DeadLetterConfig?: { TargetArn: unknown };
  Timeout: number;
}

let sandbox: SynthesizedStage;
let prod: SynthesizedStage;

/** The alarms, topic and dashboard: a nested stack of the API stack. */
const operations = new Map<SynthesizedStage, Template>();
const opsOf = (stage: SynthesizedStage) => operations.get(stage)!;

beforeAll(() => {
  sandbox = realStage('sandbox');
  prod = realStage('prod');
  for (const stage of [sandbox, prod]) operations.set(stage, Template.fromStack(Stack.of(stage.stacks.api.observability)));
});

const logicalIdOf = (template: Template, type: string, props: object): string => {
  const ids = Object.keys(template.findResources(type, props));
  expect(ids).toHaveLength(1);
  return ids[0];
};

const alarmsOf = (stage: SynthesizedStage) => resourcesOf<AlarmProps>(opsOf(stage), 'AWS::CloudWatch::Alarm').map((alarm) => alarm.Properties);
const alarmNamed = (stage: SynthesizedStage, suffix: string) => {
  const found = alarmsOf(stage).filter((alarm) => alarm.AlarmName.endsWith(`-${suffix}`));
  expect(found, suffix).toHaveLength(1);
  return found[0];
};

describe('admin function', () => {
  it('exists once per stage under the name the CLI invokes, inside the VPC, with 15 minutes', () => {
    for (const [stage, name] of [
      [sandbox, 'sandbox'],
      [prod, 'prod'],
    ] as const) {
      const found = resourcesOf<FunctionProps>(stage.api, 'AWS::Lambda::Function', { Properties: { FunctionName: adminFunctionName(name) } });
      expect(found).toHaveLength(1);
      expect(found[0].Properties.FunctionName).toBe(`bizops-${name}-admin`);
      expect(found[0].Properties.VpcConfig).toBeDefined();
      expect(found[0].Properties.Timeout).toBe(900);
    }
  });

  it('is reachable through IAM only: no permission, URL, API method or event source names it', () => {
    for (const stage of [sandbox, prod]) {
      const adminId = logicalIdOf(stage.api, 'AWS::Lambda::Function', { Properties: { FunctionName: Match.stringLikeRegexp('-admin$') } });
      const everywhere = [stage.api, ...stage.routeStacks];
      for (const template of everywhere) {
        for (const type of ['AWS::Lambda::Permission', 'AWS::Lambda::Url', 'AWS::ApiGateway::Method', 'AWS::Lambda::EventSourceMapping', 'AWS::Events::Rule']) {
          const mentions = resourcesOf(template, type).filter((resource) => JSON.stringify(resource).includes(adminId));
          expect(mentions, `${type} naming the admin function`).toEqual([]);
        }
      }
      // Nested route stacks receive functions as parameters: the admin function is not one of them.
      const nestedParameters = JSON.stringify(stage.api.findResources('AWS::CloudFormation::Stack'));
      expect(nestedParameters).not.toContain(adminId);
    }
  });

  it('may read the database login and publish to the bus, nothing else of the data stack', () => {
    const policies = resourcesOf<{ Roles: unknown[]; PolicyDocument: { Statement: { Action: unknown }[] } }>(sandbox.api, 'AWS::IAM::Policy').filter((policy) =>
      JSON.stringify(policy.Properties.Roles).includes('AdminRole'),
    );
    const actions = policies.flatMap((policy) => policy.Properties.PolicyDocument.Statement.flatMap((statement) => [statement.Action].flat())).sort();
    expect(actions).toContain('rds-db:connect');
    expect(actions.filter((action) => String(action).startsWith('secretsmanager:'))).toEqual([]);
    expect(actions).toContain('events:PutEvents');
    expect(actions.filter((action) => String(action).startsWith('dynamodb:'))).toEqual([]);
  });
});

describe('alarms', () => {
  const EXPECTED = [
    'Api5xxRate',
    'ApiLatencyP99',
    'LambdaThrottles',
    'AuthorizerErrors',
    'AuthorizerThrottles',
    'OutboxSweeperErrors',
    'OutboxSweeperThrottles',
    'OutboxSweeperDeadLetters',
    'RecurringJournalEntriesErrors',
    'RecurringJournalEntriesThrottles',
    'RecurringJournalEntriesDeadLetters',
    'VendorCreditExpiryDeadLetters',
    'UsageKeySyncErrors',
    'UsageKeySyncThrottles',
    'UsageKeySyncDeadLetters',
    'WebhookDispatcherErrors',
    'WebhookDispatcherDeadLetters',
    'WebhookRetryDeadLetters',
    'AuroraCapacity',
    'AuroraConnections',
    'ProxyAuthFailures',
    'ProxyAvailability',
    'OutboxLag',
  ];

  it('cover every signal, each named for its stage', () => {
    for (const [stage, name] of [
      [sandbox, 'sandbox'],
      [prod, 'prod'],
    ] as const) {
      const names = alarmsOf(stage).map((alarm) => alarm.AlarmName);
      for (const suffix of EXPECTED) expect(names, suffix).toContain(`bizops-${name}-${suffix}`);
      expect(names.every((alarmName) => alarmName.startsWith(`bizops-${name}-`))).toBe(true);
    }
  });

  it('all notify the stage topic when they fire and when they recover', () => {
    for (const stage of [sandbox, prod]) {
      const topicId = logicalIdOf(opsOf(stage), 'AWS::SNS::Topic', {});
      const alarms = alarmsOf(stage);
      expect(alarms.length).toBeGreaterThanOrEqual(EXPECTED.length);
      for (const alarm of alarms) {
        expect(alarm.AlarmActions, alarm.AlarmName).toEqual([{ Ref: topicId }]);
        expect(alarm.OKActions, alarm.AlarmName).toEqual([{ Ref: topicId }]);
      }
    }
  });

  it('go to an encrypted, TLS-only topic, emailed where stage config names a recipient', () => {
    opsOf(prod).hasResourceProperties('AWS::SNS::Topic', { TopicName: 'bizops-prod-alarms', KmsMasterKeyId: Match.anyValue() });
    opsOf(prod).hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: TEST_ALARM_EMAIL });
    opsOf(sandbox).resourceCountIs('AWS::SNS::Subscription', 0);
    opsOf(prod).hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
    });
  });

  it('watch what they say they watch, with the thresholds of stage config', () => {
    const rate = alarmNamed(prod, 'Api5xxRate');
    expect(rate.Threshold).toBe(1);
    expect(rate.Metrics?.find((metric) => metric.Expression)?.Expression).toBe('IF(requests >= 20, 100 * errors / requests, 0)');
    expect(
      rate.Metrics?.map((metric) => metric.MetricStat?.Metric.MetricName)
        .filter(Boolean)
        .sort(),
    ).toEqual(['5XXError', 'Count']);
    expect(alarmNamed(sandbox, 'Api5xxRate').Threshold).toBe(5);
    expect(alarmNamed(prod, 'ApiLatencyP99')).toMatchObject({ MetricName: 'Latency', ExtendedStatistic: 'p99', Threshold: 3000 });
    expect(alarmNamed(prod, 'OutboxSweeperDeadLetters')).toMatchObject({ MetricName: 'ApproximateNumberOfMessagesVisible', Threshold: 0 });
    expect(alarmNamed(prod, 'AuroraCapacity')).toMatchObject({ MetricName: 'ServerlessDatabaseCapacity', Threshold: 14.4 });
    expect(alarmNamed(prod, 'AuroraConnections')).toMatchObject({ MetricName: 'DatabaseConnections', Threshold: Math.floor(auroraMaxConnections(16) * 0.8) });
    expect(alarmNamed(prod, 'ProxyAuthFailures')).toMatchObject({ MetricName: 'ClientConnectionsSetupFailedAuth', Namespace: 'AWS/RDS' });
    // The sweeper reports every minute: silence is an alarm too.
    expect(alarmNamed(prod, 'OutboxLag')).toMatchObject({ Namespace: 'BizOps', MetricName: 'OutboxLagSeconds', Threshold: 300, TreatMissingData: 'breaching' });
    expect(alarmNamed(sandbox, 'OutboxLag').Threshold).toBe(900);
  });

  it('size the connection alarm from Aurora max_connections at the stage maximum capacity', () => {
    expect(auroraMaxConnections(4)).toBe(901);
    expect(auroraMaxConnections(64)).toBe(5000);
  });
});

describe('dashboard', () => {
  it('is one per stage and shows the alarmed signals', () => {
    for (const [stage, name] of [
      [sandbox, 'sandbox'],
      [prod, 'prod'],
    ] as const) {
      opsOf(stage).resourceCountIs('AWS::CloudWatch::Dashboard', 1);
      stage.api.resourceCountIs('AWS::CloudWatch::Dashboard', 0);
      opsOf(stage).hasResourceProperties('AWS::CloudWatch::Dashboard', { DashboardName: `bizops-${name}` });
      const body = JSON.stringify(resourcesOf(opsOf(stage), 'AWS::CloudWatch::Dashboard')[0].Properties);
      for (const signal of [
        '5XXError',
        'Latency',
        'Throttles',
        'ApproximateNumberOfMessagesVisible',
        'ServerlessDatabaseCapacity',
        'DatabaseConnections',
        'ClientConnectionsSetupFailedAuth',
        'OutboxLagSeconds',
        'WebhookDeliveryFailures',
        'MetricName=\\\\\\"Errors\\\\\\"',
      ])
        expect(body, signal).toContain(signal);
    }
  });
});

describe('dead-letter queues', () => {
  it('catch failed runs and undelivered schedules of every scheduled job', () => {
    // The usage-key sync is in the API stack (it reads the usage plans); the other jobs in their nested stack.
    for (const template of [sandbox.api, sandbox.scheduledJobs, prod.api, prod.scheduledJobs]) {
      const rules = resourcesOf<{ ScheduleExpression?: string; Targets: { Arn: unknown; DeadLetterConfig?: { Arn: unknown } }[] }>(
        template,
        'AWS::Events::Rule',
      ).filter((rule) => rule.Properties.ScheduleExpression);
      expect(rules.length).toBeGreaterThanOrEqual(1);
      for (const rule of rules) {
        const target = rule.Properties.Targets[0];
        expect(target.DeadLetterConfig, rule.Properties.ScheduleExpression).toBeDefined();
        const functionId = (target.Arn as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
        const fn = (template.toJSON() as { Resources: Record<string, { Properties: FunctionProps }> }).Resources[functionId];
        // The function's own dead-letter queue is the queue the rule falls back to.
        expect(fn.Properties.DeadLetterConfig?.TargetArn, functionId).toEqual(target.DeadLetterConfig!.Arn);
      }
    }
  });

  it('are encrypted, TLS-only and keep messages 14 days', () => {
    const queues = [prod.api, prod.scheduledJobs].flatMap((template) =>
      resourcesOf<{ SqsManagedSseEnabled: boolean; MessageRetentionPeriod: number }>(template, 'AWS::SQS::Queue'),
    );
    // One per scheduled job: outbox sweeper, recurring entries, vendor credit and quote expiry, usage-key sync.
    expect(queues.length).toBeGreaterThanOrEqual(5);
    for (const queue of queues) expect(queue.Properties).toMatchObject({ SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 24 * 3600 });
  });

  it('and their alarms come with any new scheduled job, created before or after the Observability construct', () => {
    const app = new App();
    const stack = new Stack(app, 'Probe');
    const vpc = new ec2.Vpc(stack, 'Vpc', { natGateways: 0, subnetConfiguration: [{ name: 'i', subnetType: ec2.SubnetType.PRIVATE_ISOLATED }] });
    const job = (id: string) =>
      new ScheduledJob(stack, id, {
        description: id,
        schedule: events.Schedule.rate(Duration.minutes(5)),
        code: lambda.Code.fromInline('exports.handler = async () => {}'),
        network: { vpc, subnets: { subnetType: ec2.SubnetType.PRIVATE_ISOLATED }, securityGroup: new ec2.SecurityGroup(stack, `${id}Sg`, { vpc }) },
        logging: { retentionDays: 7, removal: 'destroy' },
        environment: {},
        timeout: Duration.minutes(1),
        retryAttempts: 0,
        databaseLogin: { username: 'probe', grantConnect: (grantee) => iam.Grant.drop(grantee, 'connect as probe') },
        eventBus: new events.EventBus(stack, `${id}Bus`),
      });
    job('Before');
    new Observability(stack, 'Observability', {
      stageName: 'probe',
      api: { restApiName: 'probe', stageName: 'probe' },
      database: { clusterIdentifier: 'probe', proxyName: 'probe', maxCapacityAcu: 2 },
      thresholds: { api5xxRatePercent: 1, apiLatencyP99Ms: 1000, outboxLagSeconds: 300 },
      metricsService: 'probe',
    });
    job('After');
    const names = resourcesOf<AlarmProps>(Template.fromStack(stack), 'AWS::CloudWatch::Alarm').map((alarm) => alarm.Properties.AlarmName);
    expect(names).toContain('bizops-probe-BeforeDeadLetters');
    expect(names).toContain('bizops-probe-AfterDeadLetters');
    expect(names).toContain('bizops-probe-AfterErrors');
  });
});

describe('per-key throttling', () => {
  const methods = (stage: SynthesizedStage) =>
    nestedResources<{ AuthorizationType: string; ApiKeyRequired?: boolean; OperationName: string }>(stage, 'AWS::ApiGateway::Method').map(
      (method) => method.Properties,
    );

  it('takes the usage identifier from the authorizer, never from a client header, on every keyed method', () => {
    for (const stage of [sandbox, prod]) {
      stage.api.hasResourceProperties('AWS::ApiGateway::RestApi', { ApiKeySourceType: 'AUTHORIZER' });
      const keyed = methods(stage).filter((method) => method.AuthorizationType === 'CUSTOM');
      expect(keyed.length).toBeGreaterThan(50);
      for (const method of keyed) expect(method.ApiKeyRequired, method.OperationName).toBe(true);
      for (const method of methods(stage).filter((item) => item.AuthorizationType === 'NONE'))
        expect(method.ApiKeyRequired, method.OperationName).not.toBe(true);
    }
  });

  it('has one usage plan per tier of stage config, on the stage, with that tier per-key limits', () => {
    for (const [stage, name, tiers] of [
      [
        sandbox,
        'sandbox',
        [
          ['standard', 5, 10],
          ['high', 15, 30],
        ],
      ],
      [
        prod,
        'prod',
        [
          ['standard', 25, 50],
          ['high', 100, 200],
        ],
      ],
    ] as const) {
      const stageId = logicalIdOf(stage.api, 'AWS::ApiGateway::Stage', {});
      const plans = resourcesOf<{ UsagePlanName: string; Throttle: unknown; ApiStages: { Stage: unknown }[] }>(stage.api, 'AWS::ApiGateway::UsagePlan');
      expect(plans.map((plan) => plan.Properties.UsagePlanName).sort()).toEqual(tiers.map(([tier]) => `bizops-${name}-${tier}`).sort());
      for (const [tier, rate, burst] of tiers) {
        const plan = plans.find((item) => item.Properties.UsagePlanName === `bizops-${name}-${tier}`)!;
        expect(plan.Properties.Throttle).toEqual({ RateLimit: rate, BurstLimit: burst });
        expect(plan.Properties.ApiStages[0].Stage).toEqual({ Ref: stageId });
      }
    }
  });

  it("gives each tier a pending key in its plan, the one the authorizer names until a key's own exists", () => {
    const keys = resourcesOf<{ Value: string; Enabled: boolean }>(prod.api, 'AWS::ApiGateway::ApiKey');
    expect(keys.map((key) => key.Properties.Value).sort()).toEqual([pendingUsageKeyValueOf('prod', 'high'), pendingUsageKeyValueOf('prod', 'standard')]);
    const planKeys = resourcesOf<{ KeyId: { Ref: string }; UsagePlanId: { Ref: string }; KeyType: string }>(prod.api, 'AWS::ApiGateway::UsagePlanKey');
    expect(planKeys).toHaveLength(2);
    const resources = (prod.api.toJSON() as { Resources: Record<string, { Properties: { Value?: string; UsagePlanName?: string } }> }).Resources;
    for (const planKey of planKeys) {
      const value = resources[planKey.Properties.KeyId.Ref].Properties.Value!;
      const planName = resources[planKey.Properties.UsagePlanId.Ref].Properties.UsagePlanName!;
      expect(value.replace('bizops-prod-', '').split('-')[0]).toBe(planName.replace('bizops-prod-', ''));
    }
  });

  it('syncs each API key into its tier plan every minute, through NAT, allowed to create keys in these plans only', () => {
    for (const stage of [sandbox, prod]) {
      const sync = resourcesOf<FunctionProps & { Environment: { Variables: Record<string, unknown> }; VpcConfig: { SubnetIds: unknown[] } }>(
        stage.api,
        'AWS::Lambda::Function',
        { Properties: { Description: Match.stringLikeRegexp('^Gives new API keys') } },
      );
      expect(sync).toHaveLength(1);
      const variables = sync[0].Properties.Environment.Variables;
      expect(variables.USAGE_TIERS).toBe('standard,high');
      const planIds = JSON.stringify(variables.USAGE_PLAN_IDS);
      for (const planId of Object.keys(stage.api.findResources('AWS::ApiGateway::UsagePlan'))) expect(planIds).toContain(planId);
      // The egress subnets (the data stack exports them by name).
      expect(JSON.stringify(sync[0].Properties.VpcConfig.SubnetIds)).toMatch(/egressSubnet/);
      expect(sync[0].Properties.DeadLetterConfig).toBeDefined();
    }
    const statements = resourcesOf<{ PolicyDocument: { Statement: { Action: unknown; Resource: unknown }[] } }>(prod.api, 'AWS::IAM::Policy')
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement)
      .filter((statement) => JSON.stringify(statement.Action).includes('apigateway:'));
    const resources = JSON.stringify(statements.map((statement) => statement.Resource));
    expect(resources).toContain('::/apikeys"');
    expect(resources.match(/\/usageplans\//g)).toHaveLength(2);
    expect(resources).not.toContain('*');
  });

  it('answers a throttled request with the 429 error envelope and Retry-After', () => {
    prod.api.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'THROTTLED',
      StatusCode: '429',
      ResponseParameters: Match.objectLike({ 'gatewayresponse.header.Retry-After': "'1'" }),
      ResponseTemplates: { 'application/json': Match.stringLikeRegexp('"code":"rate_limit_exceeded"') },
    });
  });
});

describe('event archive', () => {
  it('keeps every event of the bus for the stage retention, for replay', () => {
    prod.data.hasResourceProperties('AWS::Events::Archive', {
      ArchiveName: 'bizops-prod-archive',
      RetentionDays: 90,
      SourceArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^EventsBus'), 'Arn'] },
      EventPattern: { account: [{ Ref: 'AWS::AccountId' }] },
    });
    sandbox.data.hasResourceProperties('AWS::Events::Archive', { RetentionDays: 7 });
  });
});

describe('WAF', () => {
  it('puts the managed common and known-bad-inputs rules and a per-IP rate limit on the stage', () => {
    for (const [stage, limit] of [
      [sandbox, 1500],
      [prod, 6000],
    ] as const) {
      stage.api.hasResourceProperties('AWS::WAFv2::WebACL', {
        Scope: 'REGIONAL',
        DefaultAction: { Allow: {} },
        Rules: Match.arrayWith([
          Match.objectLike({ Name: 'RatePerClientIp', Action: { Block: {} }, Statement: { RateBasedStatement: { AggregateKeyType: 'IP', Limit: limit } } }),
          Match.objectLike({
            Statement: {
              ManagedRuleGroupStatement: Match.objectLike({
                VendorName: 'AWS',
                Name: 'AWSManagedRulesCommonRuleSet',
                RuleActionOverrides: [{ Name: 'SizeRestrictions_BODY', ActionToUse: { Count: {} } }],
              }),
            },
          }),
          Match.objectLike({ Statement: { ManagedRuleGroupStatement: { VendorName: 'AWS', Name: 'AWSManagedRulesKnownBadInputsRuleSet' } } }),
        ]),
      });
    }
  });

  it('is associated with the API stage', () => {
    const stageId = logicalIdOf(prod.api, 'AWS::ApiGateway::Stage', {});
    const restApiId = logicalIdOf(prod.api, 'AWS::ApiGateway::RestApi', {});
    const association = resourcesOf<{ ResourceArn: unknown; WebACLArn: unknown }>(prod.api, 'AWS::WAFv2::WebACLAssociation');
    expect(association).toHaveLength(1);
    const arn = JSON.stringify(association[0].Properties.ResourceArn);
    expect(arn).toContain(`{"Ref":"${restApiId}"}`);
    expect(arn).toContain(`/stages/",{"Ref":"${stageId}"}`);
    expect(association[0].Properties.WebACLArn).toEqual({ 'Fn::GetAtt': [expect.stringMatching(/WebAcl/), 'Arn'] });
  });

  it("resolves cdk-nag's WAF finding instead of acknowledging it", () => {
    const sources = readdirSync(join(repoRoot, 'infra'), { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
    for (const file of sources) expect(readFileSync(join(repoRoot, 'infra', file), 'utf8'), file).not.toContain('AwsSolutions-APIG3');
    expect(prod.nag.violations.filter((violation) => violation.ruleName.includes('APIG3'))).toEqual([]);
  });
});

describe('network and stages', () => {
  const isolatedSubnets = (stage: SynthesizedStage) =>
    resourcesOf<{ Tags: { Key: string; Value: string }[] }>(stage.data, 'AWS::EC2::Subnet').filter((subnet) =>
      subnet.Properties.Tags.some((tag) => tag.Key === 'aws-cdk:subnet-name' && tag.Value === 'isolated'),
    );

  it('spans the availability zones stage config asks for, even with no account or region at synth time', () => {
    expect(isolatedSubnets(prod)).toHaveLength(3);
    expect(isolatedSubnets(sandbox)).toHaveLength(2);
    const zones = resourcesOf<{ AvailabilityZone: unknown }>(prod.data, 'AWS::EC2::Subnet').map((subnet) => JSON.stringify(subnet.Properties.AvailabilityZone));
    expect(new Set(zones)).toEqual(new Set([0, 1, 2].map((index) => JSON.stringify({ 'Fn::Select': [index, { 'Fn::GetAZs': '' }] }))));
  });

  it('creates the API Gateway account role once, in its own stack, which both stages depend on', () => {
    for (const stage of [sandbox, prod]) {
      stage.account!.resourceCountIs('AWS::ApiGateway::Account', 1);
      stage.account!.hasResource('AWS::IAM::Role', {
        DeletionPolicy: 'Retain',
        Properties: { AssumeRolePolicyDocument: { Statement: [Match.objectLike({ Principal: { Service: 'apigateway.amazonaws.com' } })] } },
      });
      stage.api.resourceCountIs('AWS::ApiGateway::Account', 0);
      stage.data.resourceCountIs('AWS::ApiGateway::Account', 0);
      expect(stage.stacks.api.dependencies).toContain(stage.stacks.account);
    }
    // The same template whichever stage deploys it.
    expect(sandbox.account!.toJSON()).toEqual(prod.account!.toJSON());
  });

  it('serves no custom domain unless stage config names one', () => {
    sandbox.api.resourceCountIs('AWS::ApiGateway::DomainName', 0);
    prod.api.resourceCountIs('AWS::ApiGateway::DomainName', 0);
  });

  it('maps a configured custom domain under the stage name, with its certificate and TLS 1.2, and tells the functions', () => {
    const certificateArn = 'arn:aws:acm:eu-west-1:111122223333:certificate/abc';
    const withDomain = synthStage({
      stage: 'prod',
      routes: [{ key: 'locations/get-location', id: 'locations.get', method: 'GET', path: '/v1/locations/{id}', auth: 'api_key' }],
      configure: (config) => ({ ...config, api: { ...config.api, customDomain: { domainName: 'api.bizops.example', certificateArn } } }),
    });
    try {
      withDomain.api.hasResourceProperties('AWS::ApiGateway::DomainName', {
        DomainName: 'api.bizops.example',
        RegionalCertificateArn: certificateArn,
        EndpointConfiguration: { Types: ['REGIONAL'] },
        SecurityPolicy: 'TLS_1_2',
      });
      withDomain.api.hasResourceProperties('AWS::ApiGateway::BasePathMapping', { BasePath: 'prod' });
      const routeFunction = resourcesOf<{ Environment: { Variables: Record<string, unknown> } }>(withDomain.routeStacks[0], 'AWS::Lambda::Function')[0];
      expect(routeFunction.Properties.Environment.Variables.PUBLIC_BASE_URL).toBe('https://api.bizops.example/prod');
    } finally {
      withDomain.cleanup();
    }
  });
});
