/**
 * Operator commands: `npm run cli -- [--stage <stage>] <command> [--flag value ...]`
 *
 *   create-entity --code acme --name "Acme Inc" [--mode test|live] [--scopes all|a:read,b:write] [--owner-email e] [--owner-name n]
 *   create-user   --entity acme --email e --name n [--permissions orders.revision_override,...]
 *   create-key    --entity acme [--user <email>] [--mode test|live] [--scopes all|...] [--name "Sync job"]
 *   run-recurring [--as-of 2026-12-01]
 *   expire-credits [--as-of 2026-12-01T00:00:00Z]
 *   expire-quotes [--as-of 2026-12-01T00:00:00Z]
 *
 * An entity is two data sets under one code, live and test (create-entity makes both, with the
 * owner in both); --mode picks the one a key acts in, and create-user adds the user to both.
 *
 * Without --stage it talks to DATABASE_URL, or to the embedded database of a running `npm start`,
 * or opens the embedded database itself when the server is stopped. With --stage it invokes that
 * deployed stage's admin function (functions/platform/admin.ts) with the operator's AWS
 * credentials (the usual AWS_PROFILE / AWS_REGION environment), which runs the same command
 * inside the VPC. A --mode the stage's authorizer would reject (live on the sandbox) is refused
 * before anything is invoked.
 */
import './local-environment';
import { ADMIN_OPTIONS, ADMIN_USAGE, adminFunctionName, isAdminCommand, runAdminCommand, UsageError } from '../functions/platform/admin-commands';
import type { AdminAnswer } from '../functions/platform/admin';
import { stageKeyModes } from '../infra/config/stages';
import { parseCommandLine } from './command-line';
import { connectForCommand } from './connect';

const STAGE_PATTERN = /^[a-z][a-z0-9-]{0,30}$/;

/** The stage's key modes (infra/config/stages.ts): a key or entity of another mode would be one the stage rejects. */
function checkModeOnStage(stage: string, mode: string | undefined): void {
  let modes: readonly string[];
  try {
    modes = stageKeyModes(stage);
  } catch {
    throw new UsageError(`--stage is a stage name: prod or sandbox, not ${stage}`);
  }
  if (mode !== undefined && !modes.includes(mode)) {
    throw new UsageError(`the ${stage} stage accepts ${modes.join(' and ')} keys only: --mode ${mode} would create a key its API rejects`);
  }
}
/** The scheduled jobs' commands: a run with failures exits 1. */
const JOB_COMMANDS: ReadonlySet<string> = new Set(['run-recurring', 'expire-credits', 'expire-quotes']);

/** Runs the command on a deployed stage through its admin function. */
async function runOnStage(stage: string, command: string, options: Record<string, string | undefined>): Promise<unknown> {
  // Loaded only here: the Lambda client is for operators, never part of a function bundle.
  const { LambdaClient, InvokeCommand } = await import('@aws-sdk/client-lambda');
  const client = new LambdaClient({});
  const payload = JSON.stringify({ command, options: Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) });
  const response = await client.send(new InvokeCommand({ FunctionName: adminFunctionName(stage), Payload: new TextEncoder().encode(payload) }));
  const text = response.Payload ? new TextDecoder().decode(response.Payload) : 'null';
  if (response.FunctionError) {
    const failure = JSON.parse(text) as { errorType?: string; errorMessage?: string };
    throw new Error(`the ${stage} admin function failed: ${failure.errorType ?? 'Error'}: ${failure.errorMessage ?? text}`);
  }
  const answer = JSON.parse(text) as AdminAnswer;
  if (!answer.ok) throw new UsageError(answer.usage);
  return answer.result;
}

async function main() {
  // Operators may run the CLI on Node 20; the AWS SDK's warning that its 2027 versions need Node 22
  // (aws/aws-sdk-js-v3#7983) would sit above every answer. Its documented switch, unless set.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const { positionals, values } = parseCommandLine(ADMIN_USAGE, { positionals: true, options: ['stage', ...ADMIN_OPTIONS] });
  const { stage, ...options } = values;
  let close: (() => Promise<void>) | undefined;
  try {
    const command = positionals[0];
    if (positionals.length > 1) throw new UsageError(`unexpected argument ${positionals[1]}`);
    if (!isAdminCommand(command)) throw new UsageError(command ? `unknown command ${command}` : 'no command');
    let result: unknown;
    if (stage !== undefined) {
      if (!STAGE_PATTERN.test(stage)) throw new UsageError('--stage is a stage name such as prod or sandbox');
      checkModeOnStage(stage, options.mode);
      result = await runOnStage(stage, command, options);
    } else {
      close = await connectForCommand();
      result = await runAdminCommand(command, options);
    }
    console.log(JSON.stringify(result, null, 2));
    if (JSON.stringify(result).includes('"secret"')) console.error('\nThe secret is shown once; store it now. Only its hash is kept.');
    if (JOB_COMMANDS.has(command) && (result as { failures?: unknown[] }).failures?.length) process.exitCode = 1;
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n\n${ADMIN_USAGE}`);
      process.exitCode = 2;
    } else {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    }
  } finally {
    await close?.();
  }
}

void main();
