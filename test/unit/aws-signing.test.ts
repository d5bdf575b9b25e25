/**
 * Signature Version 4 (shared/aws-signing.ts) against the AWS SDK's own signer, byte for byte:
 * the signed headers of the idempotency store's DynamoDB calls and the presigned URL of the
 * RDS Proxy login token, for any endpoint, region, credentials and instant.
 */
import { createHash, createHmac } from 'node:crypto';
import { SignatureV4 } from '@smithy/signature-v4';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { amzDate, lambdaSigningContext, presignedUrl, signedHeaders } from '../../shared/aws-signing';

const bytes = (data: string | ArrayBuffer | ArrayBufferView) =>
  typeof data === 'string' ? data : ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : new Uint8Array(data);

/** The SDK's hash for its signer: node:crypto's SHA-256, keyed (HMAC) when given a secret. */
class Sha256 {
  private readonly hash;
  constructor(secret?: string | ArrayBuffer | ArrayBufferView) {
    this.hash = secret === undefined ? createHash('sha256') : createHmac('sha256', bytes(secret));
  }
  update(data: string | ArrayBuffer | ArrayBufferView) {
    this.hash.update(bytes(data));
  }
  digest() {
    return Promise.resolve(new Uint8Array(this.hash.digest()));
  }
}

describe('signedHeaders', () => {
  it('signs as the AWS SDK signer does, for any endpoint, region, credentials, instant and body', async () => {
    const text = fc.string({ unit: 'grapheme', maxLength: 200 });
    const secret = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+/'), minLength: 1, maxLength: 40 });
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('https://dynamodb.eu-west-1.amazonaws.com', 'http://127.0.0.1:8000', 'https://example.test:4443'),
        fc.constantFrom('eu-west-1', 'us-east-1', 'ap-southeast-2', 'local'),
        fc.record({ accessKeyId: fc.stringMatching(/^[A-Z0-9]{16,20}$/), secretAccessKey: secret, sessionToken: fc.option(secret, { nil: undefined }) }),
        fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true }),
        fc.constantFrom('GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'),
        text.map((value) => JSON.stringify({ TableName: 't', Key: { id: { S: value } } })),
        async (endpoint, region, credentials, at, operation, body) => {
          const url = new URL(endpoint);
          const headers = {
            'content-type': 'application/x-amz-json-1.0',
            'content-length': String(Buffer.byteLength(body)),
            'x-amz-target': `DynamoDB_20120810.${operation}`,
          };
          const ours = signedHeaders(url, headers, body, { region, credentials }, at, 'dynamodb');
          const signer = new SignatureV4({ service: 'dynamodb', region, credentials, sha256: Sha256, applyChecksum: false });
          const sdk = await signer.sign(
            {
              method: 'POST',
              protocol: url.protocol,
              hostname: url.hostname,
              port: url.port ? Number(url.port) : undefined,
              path: '/',
              query: {},
              headers: { ...headers, host: url.host },
              body,
            },
            { signingDate: at },
          );
          expect(ours.authorization).toBe(sdk.headers.authorization);
          expect(ours['x-amz-date']).toBe(sdk.headers['x-amz-date']);
          expect(ours['x-amz-security-token']).toBe(sdk.headers['x-amz-security-token']);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('dates a request in the X-Amz-Date form, and scopes it to that UTC day', () => {
    const at = new Date('2026-11-29T23:59:58.123Z');
    expect(amzDate(at)).toBe('20261129T235958Z');
    const headers = signedHeaders(
      new URL('https://dynamodb.eu-west-1.amazonaws.com'),
      {},
      '{}',
      { region: 'eu-west-1', credentials: { accessKeyId: 'AKID', secretAccessKey: 's' } },
      at,
      'dynamodb',
    );
    expect(headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKID\/20261129\/eu-west-1\/dynamodb\/aws4_request, SignedHeaders=host;x-amz-date, Signature=[0-9a-f]{64}$/,
    );
  });
});

const secretText = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+/='), minLength: 1, maxLength: 40 });
const credentialsArbitrary = fc.record({
  accessKeyId: fc.stringMatching(/^[A-Z0-9]{16,20}$/),
  secretAccessKey: secretText,
  sessionToken: fc.option(secretText, { nil: undefined }),
});
const instant = fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true });

describe('presignedUrl', () => {
  it('presigns as the AWS SDK signer does, query values that need encoding included', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('bizops-prod.proxy-abc.eu-west-1.rds.amazonaws.com', 'db.example.test', '127.0.0.1'),
        fc.integer({ min: 1, max: 65535 }),
        fc.constantFrom('eu-west-1', 'us-east-1', 'cn-north-1'),
        credentialsArbitrary,
        instant,
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }),
        fc.integer({ min: 1, max: 604800 }),
        async (hostname, port, region, credentials, at, user, expiresIn) => {
          const ours = presignedUrl(`${hostname}:${port}`, { Action: 'connect', DBUser: user }, { region, credentials }, at, 'rds-db', expiresIn);
          const signer = new SignatureV4({ service: 'rds-db', region, credentials, sha256: Sha256 });
          const sdk = await signer.presign(
            {
              method: 'GET',
              protocol: 'https:',
              hostname,
              port,
              path: '/',
              query: { Action: 'connect', DBUser: user },
              headers: { host: `${hostname}:${port}` },
            },
            { signingDate: at, expiresIn },
          );
          const query = sdk.query as Record<string, string>;
          expect(ours.startsWith(`${hostname}:${port}/?`)).toBe(true);
          expect(Object.fromEntries(new URL(`https://${ours}`).searchParams)).toEqual(query);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('lambdaSigningContext', () => {
  it("takes the function's region and role credentials, the session token when there is one", () => {
    const env = { AWS_REGION: 'eu-central-1', AWS_ACCESS_KEY_ID: 'ASIA1', AWS_SECRET_ACCESS_KEY: 'secret', AWS_SESSION_TOKEN: 'token' };
    expect(lambdaSigningContext(env)).toEqual({
      region: 'eu-central-1',
      credentials: { accessKeyId: 'ASIA1', secretAccessKey: 'secret', sessionToken: 'token' },
    });
    expect(lambdaSigningContext({ ...env, AWS_SESSION_TOKEN: undefined }).credentials).toEqual({ accessKeyId: 'ASIA1', secretAccessKey: 'secret' });
    expect(() => lambdaSigningContext({ AWS_REGION: 'eu-central-1' })).toThrow(/AWS_ACCESS_KEY_ID/);
  });
});
