/**
 * The deployment stages and everything that differs between them, validated once at synth time.
 *
 * `prod` serves live and test keys; `sandbox` is the integrators' playground and accepts test keys
 * only. The stage is picked with `-c stage=prod|sandbox` (sandbox when omitted). Values that belong
 * to the operator, not the code (OPERATOR_SETTINGS: the alarm e-mail), come from CDK context or the
 * environment. Nothing here looks up an account or region, so `cdk synth` runs offline without
 * credentials.
 */
import * as z from 'zod/mini';

const STAGE_NAMES = ['prod', 'sandbox'] as const;
export type StageName = (typeof STAGE_NAMES)[number];

/** CloudWatch Logs accepts only these retention periods (days). */
const LOG_RETENTION_DAYS = [1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653] as const;

const logRetentionDays = z.number().check(
  z.int(),
  z.refine((days) => (LOG_RETENTION_DAYS as readonly number[]).includes(days), { message: `must be one of ${LOG_RETENTION_DAYS.join(', ')}` }),
);

/** What happens to a stateful resource when it leaves the template (or its stack is deleted). */
const removal = z.enum(['retain', 'snapshot', 'destroy']);
/** What happens to a resource that cannot be snapshotted when it leaves the template. */
const removalWithoutSnapshot = z.enum(['retain', 'destroy']);
export type Removal = z.infer<typeof removal>;

const StageConfigSchema = z
  .object({
    name: z.enum(STAGE_NAMES),
    /** Key modes the authorizer accepts; becomes ACCEPTED_KEY_MODES. */
    acceptedKeyModes: z.array(z.enum(['live', 'test'])).check(z.minLength(1)),
    network: z.object({
      /** Availability zones the VPC spans; Aurora and the proxy need at least two. */
      maxAzs: z.number().check(z.int(), z.gte(2), z.lte(3)),
      /**
       * NAT gateways for the functions that call the internet (webhook delivery, the card
       * processor): one per availability zone, or a single one for the VPC.
       */
      natGateways: z.enum(['per_az', 'single']),
    }),
    database: z.object({
      /** Aurora Serverless v2 capacity range in ACUs (0.5 steps). */
      minCapacity: z.number().check(z.gte(0.5), z.lte(256), z.multipleOf(0.5)),
      maxCapacity: z.number().check(z.gte(1), z.lte(256), z.multipleOf(0.5)),
      /** Serverless v2 readers that scale with the writer; one gives a failover target in another AZ. */
      readers: z.number().check(z.int(), z.gte(0), z.lte(2)),
      deletionProtection: z.boolean(),
      backupRetentionDays: z.number().check(z.int(), z.gte(1), z.lte(35)),
      /** Performance Insights (7 days free); AWS advises it only from 2 ACUs of minimum capacity. */
      performanceInsights: z.boolean(),
      removal,
    }),
    idempotency: z.object({ removal: removalWithoutSnapshot }),
    events: z.object({
      removal: removalWithoutSnapshot,
      /** How long the bus archive keeps every event for replay (EventBridge archive retention, days). */
      archiveRetentionDays: z.number().check(z.int(), z.gte(1), z.lte(3650)),
    }),
    api: z.object({
      /** Steady-state requests per second across the stage, and the burst bucket above it. */
      throttleRateLimit: z.number().check(z.positive()),
      throttleBurstLimit: z.number().check(z.int(), z.positive()),
      /** How long API Gateway reuses an authorizer answer for the same Authorization header. */
      authorizerCacheTtlSeconds: z.number().check(z.int(), z.gte(0), z.lte(3600)),
      /**
       * Per-key throttling: one API Gateway usage plan per tier, in which every API key of an account
       * on that tier gets this rate and burst for itself. The first tier is the default for new accounts.
       */
      usageTiers: z
        .array(
          z.object({
            name: z.string().check(z.regex(/^[a-z][a-z0-9_]{0,31}$/)),
            rateLimit: z.number().check(z.positive()),
            burstLimit: z.number().check(z.int(), z.positive()),
          }),
        )
        .check(z.minLength(1)),
      /** AWS WAF: requests one client IP may send in any 5 minutes before the web ACL blocks it. */
      wafRequestsPerIpPer5Minutes: z.number().check(z.int(), z.gte(10)),
      /** Optional custom domain: `https://<domainName>/` maps to this stage (certificate in ACM, same region, created outside CDK). */
      customDomain: z.optional(z.object({ domainName: z.string().check(z.minLength(3)), certificateArn: z.string().check(z.startsWith('arn:')) })),
      /**
       * Route id → execution environments Lambda keeps initialised for that route (provisioned
       * concurrency, billed while deployed): no cold start on those routes up to that many
       * concurrent requests. None by default.
       */
      provisionedConcurrency: z._default(z.record(z.string(), z.number().check(z.int(), z.gte(1), z.lte(100))), {}),
    }),
    observability: z.object({
      /**
       * Who is emailed when an alarm fires (an SNS email subscription the recipient confirms); none:
       * subscribe to the topic yourself. An operator setting (OPERATOR_SETTINGS), required for prod.
       */
      alarmEmail: z.optional(z.email()),
      /** API 5xx responses as a percentage of requests over 5 minutes. */
      api5xxRatePercent: z.number().check(z.positive(), z.lte(100)),
      /** p99 API latency over 5 minutes, in milliseconds. */
      apiLatencyP99Ms: z.number().check(z.int(), z.positive()),
      /** Age of the oldest unpublished outbox event, in seconds (the sweeper runs every minute). */
      outboxLagSeconds: z.number().check(z.int(), z.gte(60)),
    }),
    payments: z.object({
      /** The processor behind account payment methods (PAYMENT_PROCESSOR): the sandbox double (state in PostgreSQL, confirmed through POST /v1/test_helpers/setup_intents/{id}/confirm), or Stripe. */
      processor: z.enum(['sandbox', 'stripe']),
      /**
       * Stripe: name of the Secrets Manager secret (created outside CDK) holding JSON
       * {secret_key_live, secret_key_test, publishable_key_live, publishable_key_test}.
       */
      stripeSecretName: z.optional(z.string().check(z.minLength(1))),
    }),
    logs: z.object({
      /** Log groups that leave the template (a removed stack, a function moved to another nested stack): kept until their retention expires, or deleted. */
      removal: removalWithoutSnapshot,
      functionsRetentionDays: logRetentionDays,
      apiAccessRetentionDays: logRetentionDays,
      flowLogRetentionDays: logRetentionDays,
      databaseRetentionDays: logRetentionDays,
    }),
  })
  .check(
    z.superRefine((config, ctx) => {
      if (config.database.minCapacity > config.database.maxCapacity) {
        ctx.addIssue({ code: 'custom', path: ['database', 'minCapacity'], message: 'minCapacity exceeds maxCapacity' });
      }
      if (config.api.throttleBurstLimit < config.api.throttleRateLimit) {
        ctx.addIssue({ code: 'custom', path: ['api', 'throttleBurstLimit'], message: 'the burst limit must be at least the rate limit' });
      }
      const tierNames = config.api.usageTiers.map((tier) => tier.name);
      if (new Set(tierNames).size !== tierNames.length) ctx.addIssue({ code: 'custom', path: ['api', 'usageTiers'], message: 'tier names are unique' });
      config.api.usageTiers.forEach((tier, index) => {
        if (tier.burstLimit < tier.rateLimit)
          ctx.addIssue({ code: 'custom', path: ['api', 'usageTiers', index, 'burstLimit'], message: 'the burst limit must be at least the rate limit' });
        if (tier.rateLimit > config.api.throttleRateLimit)
          ctx.addIssue({ code: 'custom', path: ['api', 'usageTiers', index, 'rateLimit'], message: 'a key cannot be allowed more than the whole stage' });
      });
      if (config.name === 'prod') {
        // Guard rails: a typo in the prod block must not make customer data deletable.
        if (!config.database.deletionProtection)
          ctx.addIssue({ code: 'custom', path: ['database', 'deletionProtection'], message: 'prod keeps deletion protection on' });
        if (config.database.removal === 'destroy') ctx.addIssue({ code: 'custom', path: ['database', 'removal'], message: 'prod never destroys the database' });
        if (config.idempotency.removal !== 'retain')
          ctx.addIssue({ code: 'custom', path: ['idempotency', 'removal'], message: 'prod retains the idempotency table' });
      }
      if (config.name === 'prod' && !config.observability.alarmEmail) {
        ctx.addIssue({
          code: 'custom',
          path: ['observability', 'alarmEmail'],
          message: `prod needs the alarm e-mail: ${OPERATOR_SETTINGS.alarmEmail.howToGive}`,
        });
      }
      if (config.payments.processor === 'stripe' && !config.payments.stripeSecretName) {
        ctx.addIssue({ code: 'custom', path: ['payments', 'stripeSecretName'], message: 'the stripe processor needs its secret' });
      }
      if (config.name === 'prod' && config.payments.processor !== 'stripe') {
        ctx.addIssue({ code: 'custom', path: ['payments', 'processor'], message: 'prod serves live keys: it needs a real payment processor' });
      }
      if (config.name === 'sandbox' && config.acceptedKeyModes.includes('live')) {
        ctx.addIssue({ code: 'custom', path: ['acceptedKeyModes'], message: 'the sandbox accepts test keys only' });
      }
    }),
  );

export type StageConfig = z.infer<typeof StageConfigSchema>;

const STAGES: Record<StageName, z.input<typeof StageConfigSchema>> = {
  prod: {
    name: 'prod',
    acceptedKeyModes: ['live', 'test'],
    network: { maxAzs: 3, natGateways: 'per_az' },
    database: {
      minCapacity: 2,
      maxCapacity: 16,
      readers: 1,
      deletionProtection: true,
      backupRetentionDays: 14,
      performanceInsights: true,
      removal: 'snapshot',
    },
    idempotency: { removal: 'retain' },
    events: { removal: 'retain', archiveRetentionDays: 90 },
    api: {
      throttleRateLimit: 200,
      throttleBurstLimit: 400,
      authorizerCacheTtlSeconds: 60,
      usageTiers: [
        { name: 'standard', rateLimit: 25, burstLimit: 50 },
        { name: 'high', rateLimit: 100, burstLimit: 200 },
      ],
      wafRequestsPerIpPer5Minutes: 6000,
    },
    observability: { api5xxRatePercent: 1, apiLatencyP99Ms: 3000, outboxLagSeconds: 300 },
    payments: { processor: 'stripe', stripeSecretName: 'bizops/prod/stripe' },
    logs: { removal: 'retain', functionsRetentionDays: 90, apiAccessRetentionDays: 365, flowLogRetentionDays: 90, databaseRetentionDays: 90 },
  },
  sandbox: {
    name: 'sandbox',
    acceptedKeyModes: ['test'],
    network: { maxAzs: 2, natGateways: 'single' },
    database: {
      minCapacity: 0.5,
      maxCapacity: 4,
      readers: 0,
      deletionProtection: false,
      backupRetentionDays: 3,
      performanceInsights: false,
      removal: 'snapshot',
    },
    idempotency: { removal: 'destroy' },
    events: { removal: 'destroy', archiveRetentionDays: 7 },
    api: {
      throttleRateLimit: 25,
      throttleBurstLimit: 50,
      authorizerCacheTtlSeconds: 60,
      usageTiers: [
        { name: 'standard', rateLimit: 5, burstLimit: 10 },
        { name: 'high', rateLimit: 15, burstLimit: 30 },
      ],
      wafRequestsPerIpPer5Minutes: 1500,
    },
    observability: { api5xxRatePercent: 5, apiLatencyP99Ms: 5000, outboxLagSeconds: 900 },
    payments: { processor: 'sandbox' },
    logs: { removal: 'destroy', functionsRetentionDays: 30, apiAccessRetentionDays: 30, flowLogRetentionDays: 14, databaseRetentionDays: 14 },
  },
};

/** A value with no safe default in code: the operator gives it at synth time, as CDK context or an environment variable. */
interface OperatorSetting {
  context: string;
  env: string;
  howToGive: string;
}

function operatorSetting(context: string, env: string): OperatorSetting {
  return { context, env, howToGive: `pass -c ${context}=<value> to cdk, or set ${env}` };
}

const OPERATOR_SETTINGS = {
  /** observability.alarmEmail: who the stage's alarms e-mail. */
  alarmEmail: operatorSetting('alarmEmail', 'BIZOPS_ALARM_EMAIL'),
  /**
   * Whether this app creates the account's API Gateway CloudWatch role setting
   * (BizOps-ApiGatewayAccount): `false` leaves a setting the account already has alone.
   */
  manageApiGatewayAccount: operatorSetting('manageApiGatewayAccount', 'BIZOPS_MANAGE_API_GATEWAY_ACCOUNT'),
} as const;

/** What the operator gave, as read by operatorSettingsFrom. */
export interface OperatorSettings {
  alarmEmail?: string;
  /** Default true. */
  manageApiGatewayAccount?: boolean;
}

/** Reads the operator settings: CDK context first (`-c alarmEmail=...`), then the environment. */
export function operatorSettingsFrom(context: (key: string) => unknown, env: Record<string, string | undefined> = process.env): OperatorSettings {
  const read = (setting: OperatorSetting): string | undefined => {
    // `-c` gives strings; cdk.json may hold a boolean.
    const value = context(setting.context) ?? env[setting.env];
    if (value === undefined || value === '') return undefined;
    if (typeof value !== 'string' && typeof value !== 'boolean') throw new Error(`${setting.context} is a string, not ${JSON.stringify(value)}`);
    return String(value);
  };
  const manage = read(OPERATOR_SETTINGS.manageApiGatewayAccount);
  if (manage !== undefined && manage !== 'true' && manage !== 'false') {
    throw new Error(`manageApiGatewayAccount is true or false, not ${JSON.stringify(manage)}`);
  }
  return { alarmEmail: read(OPERATOR_SETTINGS.alarmEmail), manageApiGatewayAccount: manage === undefined ? undefined : manage === 'true' };
}

function stageNamed(name: unknown): StageName {
  const parsedName = z.enum(STAGE_NAMES).safeParse(name);
  if (!parsedName.success) throw new Error(`unknown stage ${JSON.stringify(name)}: use -c stage=${STAGE_NAMES.join('|')}`);
  return parsedName.data;
}

/** The validated configuration of a stage with the operator's settings; throws with every problem listed when it is invalid. */
export function stageConfig(name: unknown = 'sandbox', settings: OperatorSettings = {}): StageConfig {
  const raw = STAGES[stageNamed(name)];
  const alarmEmail = settings.alarmEmail ?? raw.observability.alarmEmail;
  return parseStageConfig({ ...raw, observability: { ...raw.observability, ...(alarmEmail !== undefined && { alarmEmail }) } });
}

/** The key modes a stage's authorizer accepts, without the operator settings (the CLI checks --mode with it). */
export function stageKeyModes(name: unknown): readonly ('live' | 'test')[] {
  return STAGES[stageNamed(name)].acceptedKeyModes;
}

/** Validates a raw stage block (exported so tests can prove the guard rails reject bad input). */
export function parseStageConfig(raw: unknown): StageConfig {
  const result = StageConfigSchema.safeParse(raw);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new Error(`invalid stage configuration: ${problems}`);
  }
  return result.data;
}

/** ACCEPTED_KEY_MODES as the authorizer parses it (shared/auth/authenticate.ts). */
export function acceptedKeyModesEnv(config: StageConfig): string {
  return config.acceptedKeyModes.join(',');
}
