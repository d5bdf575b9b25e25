/**
 * The RDS Proxy login (shared/db/rds-auth-token.ts, and the pool configuration of
 * shared/db/pool-config.ts that uses it): the token is the one the AWS SDK's RDS signer makes, string
 * for string, and the pool on AWS logs in with it over verified TLS.
 */
import { Signer } from '@aws-sdk/rds-signer';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { poolConfigFromEnvironment } from '../../shared/db/pool-config';
import { rdsAuthToken } from '../../shared/db/rds-auth-token';

const secretText = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+/='), minLength: 1, maxLength: 40 });

afterEach(() => {
  vi.useRealTimers();
});

describe('rdsAuthToken', () => {
  it('is the token the AWS SDK RDS signer makes, for any proxy, port, user, region, credentials and instant', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('bizops-prod.proxy-c1x2y3z4.eu-west-1.rds.amazonaws.com', 'bizops-sandbox.proxy-abc.cn-north-1.rds.amazonaws.com.cn'),
        fc.integer({ min: 1024, max: 65535 }),
        fc.stringMatching(/^[a-z_][a-z0-9_$]{0,20}$/),
        fc.constantFrom('eu-west-1', 'us-east-1', 'cn-north-1'),
        fc.record({
          accessKeyId: fc.stringMatching(/^[A-Z0-9]{16,20}$/),
          secretAccessKey: secretText,
          sessionToken: fc.option(secretText, { nil: undefined }),
        }),
        fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2060-12-31T23:59:59Z'), noInvalidDate: true }),
        async (hostname, port, username, region, credentials, at) => {
          vi.useFakeTimers({ toFake: ['Date'], now: at });
          const sdk = await new Signer({ hostname, port, username, region, credentials }).getAuthToken();
          vi.useRealTimers();
          expect(rdsAuthToken({ hostname, port, username }, { region, credentials }, at)).toBe(sdk);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('names the proxy, the user, the 15 minutes and the session token in the clear', () => {
    const token = rdsAuthToken(
      { hostname: 'proxy.example', port: 5432, username: 'app_login' },
      { region: 'eu-west-1', credentials: { accessKeyId: 'ASIAEXAMPLE', secretAccessKey: 's', sessionToken: 'tok/en=' } },
      new Date('2026-11-29T20:00:00.000Z'),
    );
    expect(token).toMatch(
      /^proxy\.example:5432\/\?Action=connect&DBUser=app_login&X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=ASIAEXAMPLE%2F20261129%2Feu-west-1%2Frds-db%2Faws4_request&X-Amz-Date=20261129T200000Z&X-Amz-Expires=900&X-Amz-Security-Token=tok%2Fen%3D&X-Amz-Signature=[0-9a-f]{64}&X-Amz-SignedHeaders=host$/,
    );
  });
});

describe('poolConfigFromEnvironment', () => {
  const aws = {
    DB_HOST: 'bizops-prod.proxy-c1x2y3z4.eu-west-1.rds.amazonaws.com',
    DB_PORT: '5432',
    DB_NAME: 'bizops',
    DB_USER: 'app_login',
    DATABASE_POOL_MAX: '1',
    AWS_REGION: 'eu-west-1',
    AWS_ACCESS_KEY_ID: 'ASIAEXAMPLE',
    AWS_SECRET_ACCESS_KEY: 'secret',
    AWS_SESSION_TOKEN: 'session',
  };

  it('logs in to the proxy as DB_USER with a fresh IAM token per connection, over verified TLS', async () => {
    const config = poolConfigFromEnvironment(aws);
    expect(config).toMatchObject({ host: aws.DB_HOST, port: 5432, database: 'bizops', user: 'app_login', ssl: { rejectUnauthorized: true }, max: 1 });
    const at = new Date('2026-11-29T20:00:00.000Z');
    vi.useFakeTimers({ toFake: ['Date'], now: at });
    const password = (config.password as () => string)();
    const expected = await new Signer({
      hostname: aws.DB_HOST,
      port: 5432,
      username: 'app_login',
      region: 'eu-west-1',
      credentials: { accessKeyId: 'ASIAEXAMPLE', secretAccessKey: 'secret', sessionToken: 'session' },
    }).getAuthToken();
    expect(password).toBe(expected);
    vi.setSystemTime(new Date(at.getTime() + 60_000));
    expect((config.password as () => string)()).toContain('X-Amz-Date=20261129T200100Z');
  });

  it('prefers DATABASE_URL, and says what is missing otherwise', () => {
    expect(poolConfigFromEnvironment({ ...aws, DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/x' })).toEqual({
      connectionString: 'postgres://postgres@127.0.0.1:5432/x',
      max: 1,
    });
    expect(() => poolConfigFromEnvironment({ ...aws, DB_USER: undefined })).toThrow(/DB_HOST and DB_USER/);
    expect(() => poolConfigFromEnvironment({ ...aws, AWS_ACCESS_KEY_ID: undefined })).toThrow(/AWS_ACCESS_KEY_ID/);
  });
});
