/**
 * Where this deployment is reached, from configuration. PUBLIC_BASE_URL is the API's root (what
 * precedes /v1): infrastructure sets it per stage, the local server from its port. The reference
 * page is served by the API itself at <root>/docs, with one anchor per error code.
 */

/** The deployment stages as integrators see them. */
export type DeploymentStage = 'prod' | 'sandbox' | 'local';

const LOCAL_ROOT = 'http://localhost:3000';

export function publicBaseUrl(): string {
  return (process.env.PUBLIC_BASE_URL || LOCAL_ROOT).replace(/\/+$/, '');
}

/** STAGE_NAME, set by infrastructure; anything else runs on a developer's machine. */
export function deploymentStage(): DeploymentStage {
  const stage = process.env.STAGE_NAME;
  return stage === 'prod' || stage === 'sandbox' ? stage : 'local';
}

/** The id of an error code's entry on the reference page. */
export function errorAnchor(code: string): string {
  return `error-${code}`;
}

/** `doc_url` of an error envelope: the code's entry on this deployment's reference page. */
export function errorDocUrl(code: string): string {
  return `${publicBaseUrl()}/docs#${errorAnchor(code)}`;
}
