/**
 * Synthesizes a stage for the infrastructure tests: same composition and feature flags as
 * infra/app.ts, but inline stand-in code (no bundling, no asset staging) unless a test passes
 * real bundles, and no built-in CloudFormation validation pass (cdk synth runs that).
 *
 * `realStage` synthesizes the real app's stage once per test process: the infra project runs its
 * files in one process without isolation (vitest.config.ts), so every file reads the same synthesis.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { App, type PolicyValidationPluginReport, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { ROUTE_MODULES } from '../../functions/routes';
import { addBizOpsStacks, addNagChecks, type BizOpsStacks } from '../../infra/bizops-app';
import { type OperatorSettings, parseStageConfig, type StageConfig, type StageName, stageConfig } from '../../infra/config/stages';
import { type FunctionCodeSource, inlineTestCode } from '../../infra/functions';
import { type RouteSpec, routeSpecs } from '../../infra/routes';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** The feature flags cdk.json gives the real app. */
function cdkJsonContext(): Record<string, unknown> {
  return (JSON.parse(readFileSync(join(repoRoot, 'cdk.json'), 'utf8')) as { context?: Record<string, unknown> }).context ?? {};
}

export const realRoutes = (): RouteSpec[] => routeSpecs(ROUTE_MODULES);

/** The alarm e-mail the tests give as an operator would (`-c alarmEmail=...`); prod does not synthesize without one. */
export const TEST_ALARM_EMAIL = 'alarms@bizops.test';

export interface SynthesizedStage {
  stacks: BizOpsStacks;
  /** BizOps-ApiGatewayAccount: the account-wide API Gateway CloudWatch role (absent when the operator keeps the account's own). */
  account?: Template;
  data: Template;
  api: Template;
  /** One per area nested stack (path resources, methods and route functions), in area order. */
  routeStacks: Template[];
  /** The webhook delivery nested stack. */
  webhooks: Template;
  /** The scheduled jobs nested stack (the quote expiry job). */
  scheduledJobs: Template;
  /** cdk-nag's own report over the whole app (acknowledged findings excluded). */
  nag: PolicyValidationPluginReport;
  /** Resource count of every template (stacks and nested stacks), by construct path. */
  resourceCounts: Record<string, number>;
  cleanup(): void;
}

export function synthStage(options: {
  stage: StageName;
  routes?: RouteSpec[];
  code?: FunctionCodeSource;
  /** Changes to the stage's configuration (e.g. a custom domain), validated like the real one. */
  configure?: (config: StageConfig) => StageConfig;
  /** The operator's settings; by default what a first deploy gives: prod's alarm e-mail, the account stack. */
  settings?: OperatorSettings;
}): SynthesizedStage {
  const settings = options.settings ?? (options.stage === 'prod' ? { alarmEmail: TEST_ALARM_EMAIL } : {});
  const outdir = mkdtempSync(join(tmpdir(), 'bizops-infra-'));
  const app = new App({ outdir, context: { ...cdkJsonContext(), stage: options.stage }, builtinCloudFormationValidation: false });
  const stacks = addBizOpsStacks(app, {
    stage: parseStageConfig((options.configure ?? ((config) => config))(stageConfig(options.stage, settings))),
    routes: options.routes ?? realRoutes(),
    code: options.code ?? inlineTestCode(),
    migrationsDir: join(repoRoot, 'migrations'),
    manageApiGatewayAccount: settings.manageApiGatewayAccount ?? true,
  });
  const checks = addNagChecks(app);
  // The first Template.fromStack synthesizes the app (nag errors would fail it here already).
  const resourceCounts: Record<string, number> = {};
  const templateOf = (stack: Stack) => {
    const template = Template.fromStack(stack);
    resourceCounts[stack.node.path] = Object.keys((template.toJSON() as { Resources?: Record<string, unknown> }).Resources ?? {}).length;
    return template;
  };
  const account = stacks.account && templateOf(stacks.account);
  const data = templateOf(stacks.data);
  const api = templateOf(stacks.api);
  const routeStacks = stacks.api.routeStacks.map(templateOf);
  const webhooks = templateOf(Stack.of(stacks.api.webhooks));
  const scheduledJobs = templateOf(stacks.api.scheduledJobs);
  templateOf(Stack.of(stacks.api.observability));
  return {
    stacks,
    account,
    data,
    api,
    routeStacks,
    webhooks,
    scheduledJobs,
    nag: checks.validateScope(app),
    resourceCounts,
    cleanup: () => rmSync(outdir, { recursive: true, force: true }),
  };
}

const realStages = new Map<StageName, SynthesizedStage>();

/** The real app's stage (real routes, the test alarm e-mail), synthesized once per process and shared; never clean it up. */
export function realStage(stage: StageName): SynthesizedStage {
  let synthesized = realStages.get(stage);
  if (!synthesized) {
    const made = synthStage({ stage });
    process.once('exit', () => made.cleanup());
    realStages.set(stage, made);
    synthesized = made;
  }
  return synthesized;
}

/** A resource of a synthesized template, its properties typed as `P`: as far as a test reads them. */
interface CfnResource<P> {
  Properties: P;
}

/**
 * The resources of one type in a template (matching `props` when given), their properties typed as
 * `P`: `Template.findResources` types every resource as `any`.
 */
export function resourcesOf<P>(template: Template, type: string, props?: object): CfnResource<P>[] {
  return Object.values(template.findResources(type, props)) as CfnResource<P>[];
}

/** Resources of one type across the route nested stacks. */
export function nestedResources<P>(stage: SynthesizedStage, type: string): CfnResource<P>[] {
  return stage.routeStacks.flatMap((template) => resourcesOf<P>(template, type));
}
