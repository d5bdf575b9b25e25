/**
 * Scopes are `<area>:read` or `<area>:write`; write implies read. `migration:admin` is separate
 * and implies nothing else (the cutover snapshot asks for it together with migration:write).
 */
export const SCOPE_AREAS = [
  'accounts',
  'accounting',
  'api_keys',
  'manufacturers',
  'migration',
  'orders',
  'payments',
  'products',
  'purchasing',
  'settings',
  'webhooks',
] as const;

export const ALL_SCOPES: string[] = [...SCOPE_AREAS.flatMap((area) => [`${area}:read`, `${area}:write`]), 'migration:admin'];

export function isKnownScope(scope: string): boolean {
  return ALL_SCOPES.includes(scope);
}

/** Whether a key holding `granted` may call something that requires `required`. */
export function hasScope(granted: readonly string[], required: string): boolean {
  if (granted.includes(required)) return true;
  const [area, level] = required.split(':');
  return level === 'read' && granted.includes(`${area}:write`);
}
