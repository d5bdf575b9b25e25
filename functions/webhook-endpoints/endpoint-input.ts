import { isEventType } from '../../events/types';
import { ApiError } from '../../shared/errors';
import { checkEndpointUrl, urlPolicy } from '../../shared/webhooks/url-policy';

/** `enabled_events` as stored: `["*"]` alone, or known event types without repeats. */
export function checkEnabledEvents(types: string[]): string[] {
  if (types.includes('*')) {
    if (types.length > 1) throw new ApiError('parameter_invalid', { param: 'enabled_events', hint: '"*" subscribes to every event type and stands alone.' });
    return ['*'];
  }
  types.forEach((type, index) => {
    if (!isEventType(type)) {
      throw new ApiError('parameter_invalid', {
        param: `enabled_events[${index}]`,
        hint: `${type} is not an event type; the event catalog in the API reference lists them, or use "*".`,
      });
    }
  });
  return [...new Set(types)];
}

/** The URL as stored, after the https and address rules of this stage (400 on `url` otherwise). */
export const checkUrl = (url: string) => checkEndpointUrl(url, urlPolicy());

export const URL_ERRORS = ['webhook_url_insecure', 'webhook_url_forbidden_address', 'webhook_url_unresolvable'] as const;

export const URL_RULES =
  'The url must use https and must not be, or resolve to, a loopback, private, link-local, carrier-grade NAT, cloud metadata, multicast, reserved or unspecified address (IPv4 or IPv6, IPv4-mapped IPv6 included): 400 webhook_url_insecure or webhook_url_forbidden_address. The address is checked again before each delivery. A local or sandbox server may allow http to the hosts on its WEBHOOK_URL_ALLOWLIST (such as localhost); prod never does.';
