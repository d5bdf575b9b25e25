/**
 * The Stripe keys of a mode: STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY (local runs), or
 * STRIPE_SECRET_ARN naming a Secrets Manager secret holding JSON {secret_key_live,
 * secret_key_test, publishable_key_live, publishable_key_test}. The secret is read once per
 * container with the SDK's Secrets Manager client, loaded with the first card request.
 */
import { awsClient } from '../aws-clients';
import type { KeyMode } from '../auth/api-key-format';
import { PaymentProcessorError } from './processor';

export interface StripeKeys {
  secret: string;
  publishable: string;
}

let secretCache: Promise<Record<string, string>> | undefined;

async function readSecret(arn: string, env: Record<string, string | undefined>): Promise<Record<string, string>> {
  const { SecretsManagerClient, GetSecretValueCommand } = await import('@aws-sdk/client-secrets-manager');
  const client = awsClient((config) => new SecretsManagerClient(config), 'AWS_ENDPOINT_URL_SECRETS_MANAGER', env);
  const secret = await client.send(new GetSecretValueCommand({ SecretId: arn }));
  return JSON.parse(secret.SecretString ?? '{}') as Record<string, string>;
}

export async function stripeKeys(mode: KeyMode, env: Record<string, string | undefined>): Promise<StripeKeys> {
  if (env.STRIPE_SECRET_KEY) return { secret: env.STRIPE_SECRET_KEY, publishable: env.STRIPE_PUBLISHABLE_KEY ?? '' };
  const arn = env.STRIPE_SECRET_ARN;
  if (!arn) throw new PaymentProcessorError('PAYMENT_PROCESSOR=stripe needs STRIPE_SECRET_KEY or STRIPE_SECRET_ARN');
  secretCache ??= readSecret(arn, env).catch((error: unknown) => {
    secretCache = undefined;
    throw error;
  });
  const values = await secretCache;
  const secret = values[`secret_key_${mode}`];
  if (!secret) throw new PaymentProcessorError(`the Stripe secret has no secret_key_${mode}`);
  return { secret, publishable: values[`publishable_key_${mode}`] ?? '' };
}
