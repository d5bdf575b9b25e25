/**
 * The CDK app: `npx cdk synth -c stage=prod|sandbox` (sandbox when omitted; add
 * `-c cfnValidation=true` for CDK's CloudFormation template validation). The operator's settings
 * (OPERATOR_SETTINGS in infra/config/stages.ts: `-c alarmEmail=...`, required for prod, and
 * `-c manageApiGatewayAccount=false`) come as context or environment variables.
 *
 * Bundles every function in one esbuild pass into <outdir>/bundles, writes the bundle sizes to
 * <outdir>/bundle-sizes.json, then synthesizes BizOps-<stage>-Data and BizOps-<stage>-Api.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { App, CloudFormationValidatePlugin, Validations } from 'aws-cdk-lib';
import { ROUTE_MODULES, ROUTES } from '../functions/routes';
import { buildOpenApiDocument } from '../shared/http/openapi';
import { addBizOpsStacks, addNagChecks } from './bizops-app';
import { bundleFunctions } from './bundle';
import { operatorSettingsFrom, stageConfig } from './config/stages';
import { bundleEntries, bundledCode, MIGRATIONS_SOURCE_DIR } from './functions';
import { routeSpecs } from './routes';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

// CDK's built-in template validation (resource schemas plus its default rules) costs ~10 s at
// 40 routes and grows faster than the template (16 s measured at 91 routes), so everyday synths
// skip it and CI turns it on: `cdk synth -c cfnValidation=true`. cdk-nag always runs.
const app = new App({ builtinCloudFormationValidation: false });
if (String(app.node.tryGetContext('cfnValidation')) === 'true') Validations.of(app).addPlugins(new CloudFormationValidatePlugin());
const settings = operatorSettingsFrom((key) => app.node.tryGetContext(key));
const stage = stageConfig(app.node.tryGetContext('stage') ?? 'sandbox', settings);
const routes = routeSpecs(ROUTE_MODULES);

const bundles = await bundleFunctions(bundleEntries(routes, buildOpenApiDocument(ROUTES)), {
  root: repoRoot,
  outdir: join(app.outdir, 'bundles'),
  sizesFile: join(app.outdir, 'bundle-sizes.json'),
});

addBizOpsStacks(app, {
  stage,
  routes,
  code: bundledCode(bundles.dirs),
  migrationsDir: join(repoRoot, MIGRATIONS_SOURCE_DIR),
  manageApiGatewayAccount: settings.manageApiGatewayAccount ?? true,
});
addNagChecks(app);

app.synth();
