/**
 * Signature Version 4 with `node:crypto`, for the AWS calls a cold function makes on its way to
 * its first answer: DynamoDB's idempotency records and EventBridge's PutEvents (signed headers,
 * shared/aws-json.ts) and the database login token for RDS Proxy (a presigned URL,
 * shared/db/rds-auth-token.ts). The SDK's signer comes with its configuration and credential
 * chain, tens of milliseconds to evaluate; these few functions load in well under one.
 */
import { createHash, createHmac } from 'node:crypto';

interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface AwsSigningContext {
  region: string;
  credentials: AwsCredentials;
}

/** The region and the role's credentials a Lambda function has, from the environment the runtime sets. */
export function lambdaSigningContext(env: NodeJS.ProcessEnv = process.env): AwsSigningContext {
  const { AWS_REGION: region, AWS_ACCESS_KEY_ID: accessKeyId, AWS_SECRET_ACCESS_KEY: secretAccessKey } = env;
  if (!region || !accessKeyId || !secretAccessKey) {
    throw new Error('AWS_REGION, AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must be set (the Lambda runtime sets them)');
  }
  return { region, credentials: { accessKeyId, secretAccessKey, ...(env.AWS_SESSION_TOKEN && { sessionToken: env.AWS_SESSION_TOKEN }) } };
}

const sha256Hex = (data: string) => createHash('sha256').update(data, 'utf8').digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();

/** `20261129T182148Z`: the X-Amz-Date form of an instant. */
export const amzDate = (at: Date) =>
  at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/** RFC 3986 encoding, as the canonical request wants it (encodeURIComponent leaves !'()* alone). */
const uriEncode = (value: string) => encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** Names and values encoded, sorted by name: the canonical form, and the order the SDK's presigner writes. */
const canonicalQueryString = (query: Record<string, string>) =>
  Object.entries(query)
    .map(([name, value]) => [uriEncode(name), uriEncode(value)])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');

interface CanonicalRequest {
  method: string;
  /** Lower-case names, values as sent. */
  headers: Record<string, string>;
  /** Decoded names and values; encoded and sorted here. */
  query: Record<string, string>;
  payloadHash: string;
}

/** The signature of a request to the root path, and the credential scope it was made for. */
function sign({ method, headers, query, payloadHash }: CanonicalRequest, { region, credentials }: AwsSigningContext, service: string, date: string) {
  const names = Object.keys(headers).sort();
  const canonicalHeaders = names.map((name) => `${name}:${headers[name].trim().replace(/\s+/g, ' ')}`);
  const canonicalRequest = [method, '/', canonicalQueryString(query), ...canonicalHeaders, '', names.join(';'), payloadHash].join('\n');
  const scope = `${date.slice(0, 8)}/${region}/${service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', date, scope, sha256Hex(canonicalRequest)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${credentials.secretAccessKey}`, date.slice(0, 8)), region), service), 'aws4_request');
  return { signature: createHmac('sha256', key).update(stringToSign, 'utf8').digest('hex'), scope, signedHeaders: names.join(';') };
}

/**
 * The headers of a signed POST of `body` to the root path of `url` (the JSON protocol's only path): the
 * given ones, Host, X-Amz-Date, X-Amz-Security-Token when the credentials carry a session token,
 * and Authorization. Every header given is signed.
 */
export function signedHeaders(
  url: URL,
  headers: Record<string, string>,
  body: string,
  context: AwsSigningContext,
  at: Date,
  service: string,
): Record<string, string> {
  const date = amzDate(at);
  const all: Record<string, string> = { ...headers, host: url.host, 'x-amz-date': date };
  if (context.credentials.sessionToken) all['x-amz-security-token'] = context.credentials.sessionToken;
  const lowered = Object.fromEntries(Object.entries(all).map(([name, value]) => [name.toLowerCase(), value]));
  const {
    signature,
    scope,
    signedHeaders: names,
  } = sign({ method: 'POST', headers: lowered, query: {}, payloadHash: sha256Hex(body) }, context, service, date);
  return { ...all, authorization: `AWS4-HMAC-SHA256 Credential=${context.credentials.accessKeyId}/${scope}, SignedHeaders=${names}, Signature=${signature}` };
}

/**
 * A presigned GET of the root path of `host` (`hostname:port`) with `query`, valid for
 * `expiresInSeconds`: `host/?query&X-Amz-...`, without a scheme, the parameters sorted by name
 * as the SDK's presigner writes them.
 */
export function presignedUrl(
  host: string,
  query: Record<string, string>,
  context: AwsSigningContext,
  at: Date,
  service: string,
  expiresInSeconds: number,
): string {
  const date = amzDate(at);
  const scope = `${date.slice(0, 8)}/${context.region}/${service}/aws4_request`;
  const signing: Record<string, string> = {
    ...query,
    'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
    'X-Amz-Credential': `${context.credentials.accessKeyId}/${scope}`,
    'X-Amz-Date': date,
    'X-Amz-Expires': String(expiresInSeconds),
    ...(context.credentials.sessionToken && { 'X-Amz-Security-Token': context.credentials.sessionToken }),
    'X-Amz-SignedHeaders': 'host',
  };
  // A presigned request has no body: the payload is the empty string's hash.
  const { signature } = sign({ method: 'GET', headers: { host }, query: signing, payloadHash: sha256Hex('') }, context, service, date);
  return `${host}/?${canonicalQueryString({ ...signing, 'X-Amz-Signature': signature })}`;
}
