/**
 * The response headers the document declares once (components.headers) and the references every
 * response carries to the rate-limit ones (docs/decisions.md, Rate-limit headers).
 */

export const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': { $ref: '#/components/headers/RateLimit-Limit' },
  'RateLimit-Remaining': { $ref: '#/components/headers/RateLimit-Remaining' },
  'RateLimit-Reset': { $ref: '#/components/headers/RateLimit-Reset' },
};

/** A count or a number of seconds, as the headers carry them. */
const HEADER_INTEGER = { type: 'integer', format: 'int32', minimum: 0, maximum: 2147483647 };
const SENT_LOCALLY =
  'Sent by the local stage (`npm start`) on every response to a request it counted; the deployed stages throttle in API Gateway, which does not send it (see Rate limits in the description of the API).';

/** Each header's definition, referenced from the responses that send it. */
export const HEADER_COMPONENTS = {
  'Request-Id': { description: 'Unique id of this request; quote it to support.', schema: { type: 'string' } },
  ETag: { description: 'Validator of this representation, for If-None-Match and If-Match.', schema: { type: 'string' } },
  'Idempotent-Replayed': {
    description: 'true when this response is a replay of an earlier request with the same Idempotency-Key.',
    schema: { type: 'string', enum: ['true'] },
  },
  'Retry-After': {
    description: 'Seconds to wait before retrying. On a 429 of the local stage it equals RateLimit-Reset; a deployed stage sends 1.',
    schema: HEADER_INTEGER,
  },
  'RateLimit-Limit': {
    description: `The requests the limit allows in a burst: the API key's, or on a 429 for failed authentications, the client address's budget of them. ${SENT_LOCALLY}`,
    schema: HEADER_INTEGER,
  },
  'RateLimit-Remaining': { description: `The requests left of RateLimit-Limit now. ${SENT_LOCALLY}`, schema: HEADER_INTEGER },
  'RateLimit-Reset': {
    description: `Seconds until one more request is available (0 when the whole burst is). ${SENT_LOCALLY}`,
    schema: HEADER_INTEGER,
  },
};
