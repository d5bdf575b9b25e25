/**
 * Synthesizes a stage for the infrastructure tests: same composition and feature flags as
 * infra/app.ts, but inline stand-in code (no bundling, no asset staging) unless a test passes
 * real bundles, and no built-in CloudFormation validation pass (cdk synth runs that).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { App, type PolicyValidationPluginReport, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { ROUTE_MODULES } from '../../functions/routes';
import { addBizOpsStacks, addNagChecks, type BizOpsStacks } from '../../infra/bizops-app';
import { parseStageConfig, type StageConfig, type StageName, stageConfig } from '../../infra/config/stages';
import { type FunctionCodeSource, inlineTestCode } from '../../infra/functions';
import { type RouteSpec, routeSpecs } from '../../infra/routes';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** The feature flags cdk.json gives the real app. */
function cdkJsonContext(): Record<string, unknown> {
  return (JSON.parse(readFileSync(join(repoRoot, 'cdk.json'), 'utf8')) as { context?: Record<string, unknown> }).context ?? {};
}

export const realRoutes = (): RouteSpec[] => routeSpecs(ROUTE_MODULES);

export interface SynthesizedStage {
  stacks: BizOpsStacks;
  /** BizOps-ApiGatewayAccount: the account-wide API Gateway CloudWatch role. */
  account: Template;
  data: Template;
  api: Template;
  /** One per nested stack of route functions, in order. */
  routeStacks: Template[];
  /** The webhook delivery nested stack. */
  webhooks: Template;
  /** The scheduled jobs nested stack (the quote expiry job). */
  scheduledJobs: Template;
  /** cdk-nag's own report over the whole app (acknowledged findings excluded). */
  nag: PolicyValidationPluginReport;
  /** Resource count per stack path. */
  resourceCounts: Record<string, number>;
  cleanup(): void;
}

export function synthStage(options: {
  stage: StageName;
  routes?: RouteSpec[];
  code?: FunctionCodeSource;
  routesPerNestedStack?: number;
  /** Changes to the stage's configuration (e.g. a custom domain), validated like the real one. */
  configure?: (config: StageConfig) => StageConfig;
}): SynthesizedStage {
  const outdir = mkdtempSync(join(tmpdir(), 'bizops-infra-'));
  const app = new App({ outdir, context: { ...cdkJsonContext(), stage: options.stage }, builtinCloudFormationValidation: false });
  const stacks = addBizOpsStacks(app, {
    stage: parseStageConfig((options.configure ?? ((config) => config))(stageConfig(options.stage))),
    routes: options.routes ?? realRoutes(),
    code: options.code ?? inlineTestCode(),
    migrationsDir: join(repoRoot, 'migrations'),
    routesPerNestedStack: options.routesPerNestedStack,
  });
  const checks = addNagChecks(app);
  // Template.fromStack synthesizes the app once (nag errors would fail it here already).
  const account = Template.fromStack(stacks.account);
  const data = Template.fromStack(stacks.data);
  const api = Template.fromStack(stacks.api);
  const routeStacks = stacks.api.routeStacks.map((nested) => Template.fromStack(nested));
  const webhooksStack = Stack.of(stacks.api.webhooks);
  const webhooks = Template.fromStack(webhooksStack);
  const scheduledJobs = Template.fromStack(stacks.api.scheduledJobs);
  const count = (template: Template) => Object.keys((template.toJSON() as { Resources?: Record<string, unknown> }).Resources ?? {}).length;
  const resourceCounts: Record<string, number> = {
    [stacks.account.node.path]: count(account),
    [stacks.data.node.path]: count(data),
    [stacks.api.node.path]: count(api),
  };
  stacks.api.routeStacks.forEach((nested, index) => {
    resourceCounts[nested.node.path] = count(routeStacks[index]);
  });
  resourceCounts[webhooksStack.node.path] = count(webhooks);
  resourceCounts[stacks.api.scheduledJobs.node.path] = count(scheduledJobs);
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
