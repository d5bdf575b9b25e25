/**
 * The public REST API (API Gateway v1): stage settings, the API-key authorizer, the gateway
 * responses that keep errors API Gateway produces itself in the API's envelope, and the path
 * resources every area shares. Each route's method is added in its area's nested stack, wired to
 * that route's function there (infra/constructs/api-area.ts).
 */
import { Aws, CfnOutput, type Duration, Size } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { pendingUsageKeyValueOf } from '../../shared/auth/usage-identifier';
import { ERROR_CATALOG, errorKey, type ErrorCode } from '../../shared/errors';
import { errorAnchor } from '../../shared/public-url';
import type { Removal } from '../config/stages';
import { apiAreaOf, pathParameters, type RouteSpec, SHARED_API_PATHS } from '../routes';
import { acknowledge, removalPolicyOf, retentionOf } from './conventions';

interface UsageTier {
  name: string;
  rateLimit: number;
  burstLimit: number;
}

export interface ApiProps {
  restApiName: string;
  stageName: string;
  throttle: { rateLimit: number; burstLimit: number };
  /** Per-key limits: one usage plan per tier (the first is the default); see shared/auth/usage-identifier.ts. */
  usageTiers: readonly UsageTier[];
  authorizerFunction: lambda.IFunction;
  authorizerCacheTtl: Duration;
  accessLogRetentionDays: number;
  logRemoval: Removal;
  /** A custom domain for the stage (certificate created outside CDK, in ACM in the API's region). */
  customDomain?: { domainName: string; certificateArn: string };
}

/**
 * Responses of at least this many bytes are compressed (gzip or deflate) when the request's
 * Accept-Encoding allows it: the OpenAPI document (about 1.2 MB, 83 KB gzipped), the reference page's
 * script, long lists. The local gateway applies the same threshold (local/compression.ts).
 */
export const MIN_COMPRESSION_BYTES = 1024;

/** The only identity source: the API key travels as `Authorization: Bearer <key>`. */
const AUTHORIZATION_IDENTITY_SOURCE = apigw.IdentitySource.header('Authorization');

interface GatewayResponseSpec {
  type: apigw.ResponseType;
  /** Omitted: keep the status API Gateway chose (e.g. 502, 504 under DEFAULT_5XX). */
  statusCode?: string;
  template: string;
  extraHeaders?: Record<string, string>;
}

/**
 * The error envelope `{error, code, type, hint, doc_url, request_id}` as a gateway response
 * template. Values come from the error catalog (so gateway and handler errors read the same);
 * `code` (inside a string) and `hint` (raw JSON) may instead be template expressions. Gateway response templates only
 * substitute $context variables (no VTL logic, no escaping), which is why static text is
 * JSON-encoded here. `doc_url` is the stage's own reference page, as the functions' PUBLIC_BASE_URL
 * makes it (https://<api host>/<stage>/docs#error-<code>).
 */
function envelopeTemplate(catalogCode: ErrorCode, raw: { code?: string; hint?: string } = {}): string {
  const code = raw.code ?? catalogCode;
  const { type, hint } = ERROR_CATALOG[catalogCode];
  // A dynamic code (the authorizer's) shares its catalog code's family; a static one is its own key.
  const error = raw.code === undefined ? errorKey(catalogCode) : ERROR_CATALOG[catalogCode].family;
  return [
    '{',
    `"error":${JSON.stringify(error)},`,
    `"code":"${code}",`,
    `"type":${JSON.stringify(type)},`,
    `"hint":${raw.hint ?? JSON.stringify(hint)},`,
    `"doc_url":"https://$context.domainName/$context.stage/docs#${errorAnchor(code)}",`,
    '"request_id":"$context.requestId"',
    '}',
  ].join('');
}

const GATEWAY_RESPONSES: readonly GatewayResponseSpec[] = [
  // No Authorization header: API Gateway answers without calling the authorizer.
  { type: apigw.ResponseType.UNAUTHORIZED, statusCode: '401', template: envelopeTemplate('api_key_missing') },
  // The authorizer returned Deny; its context carries the precise code and hint (functions/authorizer).
  {
    type: apigw.ResponseType.ACCESS_DENIED,
    statusCode: '401',
    template: envelopeTemplate('api_key_invalid', { code: '$context.authorizer.errorCode', hint: '"$context.authorizer.errorHint"' }),
  },
  // No resource or method matches: a plain 404, not API Gateway's misleading 403 "Missing Authentication Token".
  { type: apigw.ResponseType.MISSING_AUTHENTICATION_TOKEN, statusCode: '404', template: envelopeTemplate('route_not_found') },
  { type: apigw.ResponseType.THROTTLED, statusCode: '429', template: envelopeTemplate('rate_limit_exceeded'), extraHeaders: { 'Retry-After': "'1'" } },
  { type: apigw.ResponseType.REQUEST_TOO_LARGE, statusCode: '413', template: envelopeTemplate('request_too_large') },
  { type: apigw.ResponseType.UNSUPPORTED_MEDIA_TYPE, statusCode: '415', template: envelopeTemplate('unsupported_media_type') },
  // The authorizer threw or timed out. It throws only when it cannot reach the database in time (a
  // Deny would be cached for the key and tell a valid key it is invalid), so this is a 503 to retry.
  { type: apigw.ResponseType.AUTHORIZER_FAILURE, statusCode: '503', template: envelopeTemplate('service_unavailable'), extraHeaders: { 'Retry-After': "'1'" } },
  {
    type: apigw.ResponseType.AUTHORIZER_CONFIGURATION_ERROR,
    statusCode: '503',
    template: envelopeTemplate('service_unavailable'),
    extraHeaders: { 'Retry-After': "'1'" },
  },
  // Anything else: keep API Gateway's status, say what it said.
  { type: apigw.ResponseType.DEFAULT_4XX, template: envelopeTemplate('parameter_invalid', { hint: '$context.error.messageString' }) },
  { type: apigw.ResponseType.DEFAULT_5XX, template: envelopeTemplate('internal_error') },
];

/** Headers on every gateway response. */
const GATEWAY_RESPONSE_HEADERS: Record<string, string> = {
  'Content-Type': "'application/json'",
  'Request-Id': 'context.requestId',
};

/** One JSON object per request; never the Authorization header. */
const ACCESS_LOG_FORMAT = apigw.AccessLogFormat.custom(
  JSON.stringify({
    requestId: apigw.AccessLogField.contextRequestId(),
    extendedRequestId: apigw.AccessLogField.contextExtendedRequestId(),
    requestTime: apigw.AccessLogField.contextRequestTime(),
    ip: apigw.AccessLogField.contextIdentitySourceIp(),
    userAgent: apigw.AccessLogField.contextIdentityUserAgent(),
    method: apigw.AccessLogField.contextHttpMethod(),
    resourcePath: apigw.AccessLogField.contextResourcePath(),
    path: apigw.AccessLogField.contextPath(),
    protocol: apigw.AccessLogField.contextProtocol(),
    status: apigw.AccessLogField.contextStatus(),
    responseLength: apigw.AccessLogField.contextResponseLength(),
    responseLatency: apigw.AccessLogField.contextResponseLatency(),
    integrationLatency: apigw.AccessLogField.contextIntegrationLatency(),
    integrationStatus: apigw.AccessLogField.contextIntegrationStatus(),
    authorizerStatus: apigw.AccessLogField.contextAuthorizeStatus(),
    authorizerLatency: apigw.AccessLogField.contextAuthorizeLatency(),
    authorizerError: apigw.AccessLogField.contextAuthorizeError(),
    entityId: apigw.AccessLogField.contextAuthorizer('entityId'),
    keyId: apigw.AccessLogField.contextAuthorizer('keyId'),
    denyCode: apigw.AccessLogField.contextAuthorizer('errorCode'),
    errorType: apigw.AccessLogField.contextErrorResponseType(),
    errorMessage: apigw.AccessLogField.contextErrorMessage(),
    xrayTraceId: apigw.AccessLogField.contextXrayTraceId(),
  }),
);

const NO_COGNITO_REASON =
  'Callers are server-side integrations that authenticate with API keys (Authorization: Bearer bo_<mode>_ent_<code>_<secret>), verified by the Lambda REQUEST authorizer against hashed keys; there are no end-user sign-ins for a Cognito user pool to hold.';

const pascal = (name: string) => name.replace(/(^|_)([a-z])/g, (_match, _sep: string, letter: string) => letter.toUpperCase());

export class Api extends Construct {
  readonly restApi: apigw.RestApi;
  readonly authorizer: apigw.RequestAuthorizer;
  readonly stageName: string;
  /**
   * Where integrators reach this stage (shared/public-url.ts): the custom domain when there is one.
   * Built from the API's id, not its deployment stage, which depends on every method.
   */
  readonly publicBaseUrl: string;
  /** The usage plan of each tier, by tier name (the usage-key sync puts each key's gateway key in one). */
  readonly usagePlans: Record<string, apigw.UsagePlan> = {};
  private readonly validator: apigw.RequestValidator;
  /** Path resources by path, wherever they live. */
  private readonly resources = new Map<string, apigw.IResource>();

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);
    this.stageName = props.stageName;

    const accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: retentionOf(props.accessLogRetentionDays),
      removalPolicy: removalPolicyOf(props.logRemoval),
    });

    this.restApi = new apigw.RestApi(this, 'RestApi', {
      restApiName: props.restApiName,
      description: 'BizOps REST API',
      endpointTypes: [apigw.EndpointType.REGIONAL],
      minCompressionSize: Size.bytes(MIN_COMPRESSION_BYTES),
      // Usage plans throttle by the key the authorizer names (usageIdentifierKey), never by a client header.
      apiKeySourceType: apigw.ApiKeySourceType.AUTHORIZER,
      // The account's API Gateway CloudWatch role belongs to BizOps-ApiGatewayAccount (infra/stacks/account-stack.ts).
      cloudWatchRole: false,
      deployOptions: {
        stageName: props.stageName,
        tracingEnabled: true,
        loggingLevel: apigw.MethodLoggingLevel.ERROR,
        dataTraceEnabled: false,
        metricsEnabled: true,
        throttlingRateLimit: props.throttle.rateLimit,
        throttlingBurstLimit: props.throttle.burstLimit,
        accessLogDestination: new apigw.LogGroupLogDestination(accessLogs),
        accessLogFormat: ACCESS_LOG_FORMAT,
      },
    });

    for (const response of GATEWAY_RESPONSES) {
      this.restApi.addGatewayResponse(response.type.responseType, {
        type: response.type,
        statusCode: response.statusCode,
        responseHeaders: { ...GATEWAY_RESPONSE_HEADERS, ...response.extraHeaders },
        templates: { 'application/json': response.template },
      });
    }

    this.authorizer = new apigw.RequestAuthorizer(this, 'ApiKeyAuthorizer', {
      authorizerName: `${props.restApiName}-api-key`,
      handler: props.authorizerFunction,
      identitySources: [AUTHORIZATION_IDENTITY_SOURCE],
      resultsCacheTtl: props.authorizerCacheTtl,
    });

    // Path parameters are declared required on every method; bodies are validated by each
    // route's zod schema, which answers in the API's envelope with the offending `param`.
    this.validator = this.restApi.addRequestValidator('RequestValidator', {
      requestValidatorName: 'parameters-and-body',
      validateRequestParameters: true,
      validateRequestBody: true,
    });

    // Per-key throttling: a usage plan per tier. Every API key gets a gateway key of its own in its
    // tier's plan (the usage-key sync job); until then it is counted on the tier's pending key.
    // The stage-wide throttle above stays the ceiling over all keys together.
    for (const tier of props.usageTiers) {
      const plan = this.restApi.addUsagePlan(`UsagePlan${pascal(tier.name)}`, {
        name: `${props.restApiName}-${tier.name}`,
        description: `${tier.name} tier: each API key ${tier.rateLimit} requests per second, bursts of ${tier.burstLimit}`,
        throttle: { rateLimit: tier.rateLimit, burstLimit: tier.burstLimit },
        apiStages: [{ api: this.restApi, stage: this.restApi.deploymentStage }],
      });
      const pending = new apigw.ApiKey(this, `PendingKeys${pascal(tier.name)}`, {
        apiKeyName: `${props.restApiName}-${tier.name}-pending-keys`,
        description: `Counts the ${tier.name} tier's API keys whose own usage key the sync job has not created yet`,
        // Not a secret: with the authorizer as the key source, no request can present a key value.
        value: pendingUsageKeyValueOf(props.stageName, tier.name),
        enabled: true,
      });
      plan.addApiKey(pending);
      this.usagePlans[tier.name] = plan;
    }

    if (props.customDomain) {
      // Mapped under the stage's name (https://<domain>/<stage>/...), so every URL the API builds
      // from $context.stage (doc_url in gateway responses) is right on both hosts.
      const domain = this.restApi.addDomainName('CustomDomain', {
        domainName: props.customDomain.domainName,
        certificate: acm.Certificate.fromCertificateArn(this, 'Certificate', props.customDomain.certificateArn),
        endpointType: apigw.EndpointType.REGIONAL,
        securityPolicy: apigw.SecurityPolicy.TLS_1_2,
        basePath: props.stageName,
      });
      this.publicBaseUrl = `https://${props.customDomain.domainName}/${props.stageName}`;
      new CfnOutput(this, 'CustomDomainTarget', {
        description: `Point ${props.customDomain.domainName} here (a CNAME, or a Route 53 alias)`,
        value: domain.domainNameAliasDomainName,
      });
    } else {
      this.publicBaseUrl = `https://${this.restApi.restApiId}.execute-api.${Aws.REGION}.${Aws.URL_SUFFIX}/${props.stageName}`;
    }
  }

  /**
   * Adds the method of `route` to `scope` (its area's nested stack), integrated (Lambda proxy) with
   * `handler`, with the path resources it needs below the shared ones. A plain AWS_PROXY
   * integration: LambdaIntegration would create the invoke permission itself; the area's stack
   * creates it, next to the function.
   */
  addRoute(scope: Construct, id: string, route: RouteSpec, handler: lambda.IFunction): apigw.Method {
    const integration = new apigw.Integration({
      type: apigw.IntegrationType.AWS_PROXY,
      integrationHttpMethod: 'POST',
      uri: `arn:${Aws.PARTITION}:apigateway:${Aws.REGION}:lambda:path/2015-03-31/functions/${handler.functionArn}/invocations`,
    });
    // The RestApi's deployment depends on every method and hashes them into its logical id
    // (apigw.Method does both), so a changed method anywhere is deployed to the stage.
    const method = new apigw.Method(scope, id, {
      resource: this.resourceFor(scope, route.path),
      httpMethod: route.method,
      integration,
      options: {
        operationName: route.id,
        requestValidator: this.validator,
        requestParameters: Object.fromEntries(pathParameters(route.path).map((name) => [`method.request.path.${name}`, true])),
        ...(route.auth === 'api_key'
          ? { authorizer: this.authorizer, authorizationType: apigw.AuthorizationType.CUSTOM, apiKeyRequired: true }
          : { authorizationType: apigw.AuthorizationType.NONE }),
      },
    });
    // On each method, which lives in its area's stack rather than under the RestApi construct.
    acknowledge(method, 'AwsSolutions-COG4', NO_COGNITO_REASON);
    if (route.auth === 'none') {
      acknowledge(
        method,
        'AwsSolutions-APIG4',
        `${route.method} ${route.path} is public by design (auth: none in the route table): it serves the API's own description and reads no customer data.`,
      );
    }
    return method;
  }

  /**
   * Answers every method `path` does not have with 405 method_not_allowed, its Allow header and the
   * envelope's `allow` listing `methods`: an ANY method (explicit methods win over it) with a MOCK
   * integration whose only response is the default one, the 405. Without it, API
   * Gateway answers a wrong method as an unknown path (MISSING_AUTHENTICATION_TOKEN, our 404). One
   * resource per path that has routes, in `scope` (the area's nested stack).
   */
  addMethodNotAllowed(scope: Construct, id: string, path: string, methods: readonly string[]): apigw.Method {
    const allow = [...methods].sort();
    const envelope = envelopeTemplate('method_not_allowed').replace(/^\{/, `{"allow":${JSON.stringify(allow)},`);
    const headers = { 'method.response.header.Allow': `'${allow.join(', ')}'`, 'method.response.header.Request-Id': 'context.requestId' };
    const method = new apigw.Method(scope, id, {
      resource: this.resourceFor(scope, path),
      httpMethod: 'ANY',
      integration: new apigw.MockIntegration({
        // No request template: whatever the body and its type, the mock answers its default
        // integration response (the AWS guide's way for a mock that ignores the request).
        passthroughBehavior: apigw.PassthroughBehavior.WHEN_NO_TEMPLATES,
        integrationResponses: [
          {
            statusCode: '405',
            responseParameters: { ...headers, 'method.response.header.Content-Type': "'application/json'" },
            responseTemplates: { 'application/json': envelope },
          },
        ],
      }),
      options: {
        authorizationType: apigw.AuthorizationType.NONE,
        methodResponses: [
          {
            statusCode: '405',
            responseParameters: {
              'method.response.header.Allow': true,
              'method.response.header.Request-Id': true,
              'method.response.header.Content-Type': true,
            },
          },
        ],
      },
    });
    acknowledge(method, 'AwsSolutions-COG4', NO_COGNITO_REASON);
    acknowledge(method, 'AwsSolutions-APIG4', `ANY ${path} only answers the methods ${path} does not have with 405: it runs nothing and reads no data.`);
    return method;
  }

  /**
   * The path resource of `path`: the shared ones (SHARED_API_PATHS) in this stack, an area's root
   * resource and everything below it in the area's stack (`scope`).
   */
  private resourceFor(scope: Construct, path: string): apigw.IResource {
    if (path === '/') return this.restApi.root;
    const known = this.resources.get(path);
    if (known) return known;
    const cut = path.lastIndexOf('/');
    const parentPath = path.slice(0, cut) || '/';
    const pathPart = path.slice(cut + 1);
    const parent = this.resourceFor(scope, parentPath);
    const startsArea = !SHARED_API_PATHS.includes(path) && (parentPath === '/' || SHARED_API_PATHS.includes(parentPath));
    if (startsArea && apiAreaOf(path).rootPath !== path) throw new Error(`${path} is not the root of its area`);
    // Below an area's root, addResource creates each child in its parent's (the area's) stack.
    const resource = startsArea ? new apigw.Resource(scope, 'AreaRoot', { parent, pathPart }) : parent.addResource(pathPart);
    this.resources.set(path, resource);
    return resource;
  }
}
