/**
 * The cutover snapshot workflow on AWS: the state machine deploys the repository's one definition,
 * its role may do exactly what the definition calls, and only the snapshot route may start it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { cutoverSnapshotDefinition } from '../../shared/migration/snapshot-state-machine';
import { nestedResources, resourcesOf, type SynthesizedStage, realStage } from './synth';

interface Statement {
  Action: string | string[];
  Resource: unknown;
  Effect: string;
}
interface Policy {
  Roles: { Ref: string }[];
  PolicyDocument: { Statement: Statement[] };
}
interface StateMachine {
  DefinitionString: unknown;
  DefinitionSubstitutions: Record<string, unknown>;
  TracingConfiguration: { Enabled: boolean };
  LoggingConfiguration: { Level: string };
  RoleArn: { 'Fn::GetAtt': [string, string] };
}
interface LambdaFunction {
  Description: string;
  Environment: { Variables: Record<string, unknown> };
  Role: { 'Fn::GetAtt': [string, string] };
}

let prod: SynthesizedStage;
let sandbox: SynthesizedStage;

beforeAll(() => {
  prod = realStage('prod');
  sandbox = realStage('sandbox');
});

const actionsOf = (statement: Statement) => (Array.isArray(statement.Action) ? statement.Action : [statement.Action]);
const allStatements = (stage: SynthesizedStage) =>
  resourcesOf<Policy>(stage.api, 'AWS::IAM::Policy').flatMap((policy) => policy.Properties.PolicyDocument.Statement);
const snapshotRoute = (stage: SynthesizedStage) =>
  nestedResources<LambdaFunction>(stage, 'AWS::Lambda::Function').find((fn) => fn.Properties.Description.includes('(migration.cutover_snapshot_create)'))!;

describe('cutover snapshot state machine', () => {
  it('deploys the one definition of the repository, with the task function substituted, traced and logged', () => {
    const machines = resourcesOf<StateMachine>(prod.api, 'AWS::StepFunctions::StateMachine');
    expect(machines).toHaveLength(1);
    const machine = machines[0].Properties;
    // The definition string is plain JSON (the task function ARN travels in DefinitionSubstitutions).
    expect(JSON.parse(String(machine.DefinitionString))).toEqual(cutoverSnapshotDefinition());
    expect(Object.keys(machine.DefinitionSubstitutions)).toEqual(['SnapshotTaskFunctionArn']);
    expect(machine.TracingConfiguration.Enabled).toBe(true);
    expect(machine.LoggingConfiguration.Level).toBe('ALL');
  });

  it('lets the state machine create and describe cutover-* snapshots of its own cluster only, and invoke its task function', () => {
    const rds = allStatements(prod).filter((statement) => actionsOf(statement).some((action) => action.startsWith('rds:')));
    expect(rds.flatMap(actionsOf).sort()).toEqual(['rds:AddTagsToResource', 'rds:CreateDBClusterSnapshot', 'rds:DescribeDBClusterSnapshots']);
    const text = JSON.stringify(rds);
    expect(text).toContain(':cluster:bizops-prod');
    expect(text).toContain(':cluster-snapshot:cutover-*');
    expect(text).not.toMatch(/"Resource":"\*"/);
    expect(text).not.toContain('rds:*');
    // The task function is invoked by its unqualified ARN only (no `:*` version wildcard).
    const invokes = allStatements(prod).filter(
      (statement) => actionsOf(statement).includes('lambda:InvokeFunction') && JSON.stringify(statement.Resource).includes('CutoverSnapshotTask'),
    );
    expect(invokes).toHaveLength(1);
    expect(JSON.stringify(invokes[0].Resource)).not.toContain(':*');
  });

  it('lets only the snapshot route start executions, and tells it the state machine, the environment and the cluster', () => {
    const starters = [
      ...allStatements(prod),
      ...prod.routeStacks
        .flatMap((template) => resourcesOf<Policy>(template, 'AWS::IAM::Policy'))
        .flatMap((policy) => policy.Properties.PolicyDocument.Statement),
    ].filter((statement) => actionsOf(statement).includes('states:StartExecution'));
    expect(starters).toHaveLength(1);
    for (const [stage, env] of [
      [prod, 'prod'],
      [sandbox, 'dev'],
    ] as const) {
      const variables = snapshotRoute(stage).Properties.Environment.Variables;
      expect(variables).toMatchObject({ CUTOVER_ENV: env, DB_CLUSTER_IDENTIFIER: `bizops-${stage === prod ? 'prod' : 'sandbox'}` });
      expect(variables.CUTOVER_STATE_MACHINE_ARN).toBeDefined();
    }
    // The route runs in the isolated subnets: Step Functions is reached through an interface endpoint.
    const endpoints = resourcesOf<{ ServiceName: unknown; VpcEndpointType: string }>(prod.data, 'AWS::EC2::VPCEndpoint').filter((endpoint) =>
      JSON.stringify(endpoint.Properties.ServiceName).includes('.states'),
    );
    expect(endpoints.map((endpoint) => endpoint.Properties.VpcEndpointType)).toEqual(['Interface']);
    const others = nestedResources<LambdaFunction>(prod, 'AWS::Lambda::Function').filter(
      (fn) => !fn.Properties.Description.includes('(migration.cutover_snapshot_create)'),
    );
    for (const fn of others) expect(fn.Properties.Environment.Variables.CUTOVER_STATE_MACHINE_ARN, fn.Properties.Description).toBeUndefined();
  });

  it('leaves no unacknowledged cdk-nag error on the workflow', () => {
    for (const stage of [prod, sandbox]) {
      const errors = stage.nag.violations.filter(
        (violation) =>
          violation.severity === 'error' && violation.violatingResources.some((resource) => resource.constructPath?.includes('CutoverSnapshot') === true),
      );
      expect(errors.map((violation) => violation.ruleName)).toEqual([]);
    }
  });
});
