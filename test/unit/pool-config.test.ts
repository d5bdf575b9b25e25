/**
 * The pool configuration (shared/db/pool-config.ts): on AWS it logs in to RDS Proxy as DB_USER
 * over verified TLS, with a token the SDK's RDS signer makes afresh for every connection.
 */
import { Signer } from '@aws-sdk/rds-signer';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { poolConfigFromEnvironment } from '../../shared/db/pool-config';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
});

describe('poolConfigFromEnvironment', () => {
  const aws = {
    DB_HOST: 'bizops-prod.proxy-c1x2y3z4.eu-west-1.rds.amazonaws.com',
    DB_PORT: '5432',
    DB_NAME: 'bizops',
    DB_USER: 'app_login',
    DATABASE_POOL_MAX: '1',
    AWS_REGION: 'eu-west-1',
  };
  const credentials = { accessKeyId: 'ASIAEXAMPLE', secretAccessKey: 'secret', sessionToken: 'session' };

  it('logs in to the proxy as DB_USER with a fresh IAM token per connection, over verified TLS', async () => {
    // The role's credentials, where the Lambda runtime puts them.
    vi.stubEnv('AWS_ACCESS_KEY_ID', credentials.accessKeyId);
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', credentials.secretAccessKey);
    vi.stubEnv('AWS_SESSION_TOKEN', credentials.sessionToken);
    const config = poolConfigFromEnvironment(aws);
    expect(config).toMatchObject({ host: aws.DB_HOST, port: 5432, database: 'bizops', user: 'app_login', ssl: { rejectUnauthorized: true }, max: 1 });
    const at = new Date('2026-11-29T20:00:00.000Z');
    vi.useFakeTimers({ toFake: ['Date'], now: at });
    const password = config.password as () => Promise<string>;
    const token = await password();
    const expected = await new Signer({ hostname: aws.DB_HOST, port: 5432, username: 'app_login', region: 'eu-west-1', credentials }).getAuthToken();
    expect(token).toBe(expected);
    expect(token).toMatch(/^bizops-prod\.proxy-c1x2y3z4\.eu-west-1\.rds\.amazonaws\.com:5432\/\?Action=connect&DBUser=app_login&/);
    expect(token).toContain('X-Amz-Credential=ASIAEXAMPLE%2F20261129%2Feu-west-1%2Frds-db%2Faws4_request');
    expect(token).toContain('X-Amz-Expires=900');
    expect(token).toContain('X-Amz-Security-Token=session');
    vi.setSystemTime(new Date(at.getTime() + 60_000));
    expect(await password()).toContain('X-Amz-Date=20261129T200100Z');
  });

  it('prefers DATABASE_URL, and says what is missing otherwise', () => {
    expect(poolConfigFromEnvironment({ ...aws, DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/x' })).toEqual({
      connectionString: 'postgres://postgres@127.0.0.1:5432/x',
      max: 1,
    });
    expect(() => poolConfigFromEnvironment({ ...aws, DB_USER: undefined })).toThrow(/DB_HOST and DB_USER/);
  });
});
