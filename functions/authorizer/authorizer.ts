/**
 * The API Gateway REQUEST authorizer: maps `Authorization: Bearer <key>` to a caller.
 *
 * API Gateway caches the result keyed by the Authorization header (the identity source), so a
 * cached answer is only ever reused for the very same key string: it can never lend one key's
 * entity or scopes to another. The policy allows the whole stage because scopes are checked per
 * route in the handler stack, not here, which keeps a cached Allow valid for every route.
 * Failures return a Deny with the precise code in the context; the ACCESS_DENIED gateway response
 * turns that into a 401 error envelope. An Allow names the key's usage identifier, so API Gateway
 * throttles each key under its tier's usage plan (shared/auth/usage-identifier.ts).
 *
 * A database fault (lost connection, timeout, busy pool) is not an answer about the key, so it is
 * never a Deny: API Gateway would cache that Deny for the key and turn it into a 401 or 403 for a
 * key that is valid. The data layer's 503 service_unavailable is thrown instead; API Gateway caches
 * nothing and answers with the AUTHORIZER_FAILURE gateway response, a 503 envelope with Retry-After
 * (infra/constructs/api.ts). Locally the gateway answers the thrown error's own 503 envelope.
 */
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { acceptedKeyModes, authenticate } from '../../shared/auth/authenticate';
import { usageIdentifierOf } from '../../shared/auth/usage-identifier';
import { connectDuringInit } from '../../shared/db/database';
import { ERROR_CATALOG } from '../../shared/errors';

function stageWildcard(methodArn: string): string {
  // arn:aws:execute-api:region:account:apiId/stage/METHOD/path → arn:...:apiId/stage/*
  const [prefix, stage] = methodArn.split('/');
  return `${prefix}/${stage}/*`;
}

async function authorize(event: Pick<APIGatewayRequestAuthorizerEvent, 'headers' | 'methodArn'>): Promise<APIGatewayAuthorizerResult> {
  const header = Object.entries(event.headers ?? {}).find(([name]) => name.toLowerCase() === 'authorization')?.[1];
  const result = await authenticate(header ?? undefined, acceptedKeyModes());
  const resource = stageWildcard(event.methodArn);
  if (!result.ok) {
    return {
      principalId: 'anonymous',
      policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: 'Deny', Resource: resource }] },
      context: { errorCode: result.code, errorHint: ERROR_CATALOG[result.code].hint },
    };
  }
  const { caller } = result;
  return {
    principalId: caller.keyId,
    // The API Gateway key whose usage plan throttles this key (per key, at its account's tier).
    usageIdentifierKey: usageIdentifierOf({ keyId: caller.keyId, tier: result.usage?.tier ?? 'standard', synced: result.usage?.synced ?? false }),
    policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: resource }] },
    context: {
      entityId: caller.entityId,
      entityCode: caller.entityCode,
      keyId: caller.keyId,
      userId: caller.userId,
      mode: caller.mode,
      scopes: caller.scopes.join(' '),
    },
  };
}

connectDuringInit();
export const handler = authorize;
