/**
 * Where GET /v1/openapi.json gets its document. On AWS the bundling step writes the generated
 * document next to the function's code (so that function does not bundle every route); locally and
 * in tests the gateway builds it from the route table it serves.
 */
import { readFile } from 'node:fs/promises';
import { deploymentStage, publicBaseUrl, type DeploymentStage } from '../public-url';

type Source = () => Promise<Record<string, unknown>> | Record<string, unknown>;

export const OPENAPI_FILE = 'openapi.json';

let source: Source | undefined;
let cached: Record<string, unknown> | undefined;

export function setOpenApiSource(next: Source): void {
  source = next;
  cached = undefined;
}

export async function loadOpenApiDocument(): Promise<Record<string, unknown>> {
  if (!cached) {
    cached = source
      ? await source()
      : // Bundled, this module is the function's index.mjs, and the document sits beside it.
        (JSON.parse(await readFile(new URL(`./${OPENAPI_FILE}`, import.meta.url), 'utf8')) as Record<string, unknown>);
  }
  return cached;
}

interface Server {
  url: string;
  description: string;
}

const STAGE_DESCRIPTIONS: Record<DeploymentStage, string> = {
  prod: 'Production: live keys act on live data, test keys on test data.',
  sandbox: 'Sandbox: test keys and test data only.',
  local: 'This machine (npm start).',
};

/** The generated document's placeholder server; the serving deployment states its own. */
export const LOCAL_SERVER: Server = { url: 'http://localhost:3000', description: STAGE_DESCRIPTIONS.local };

/** The server of the deployment that serves the document: its stage and public root. */
export function deploymentServers(): Server[] {
  return [{ url: publicBaseUrl(), description: STAGE_DESCRIPTIONS[deploymentStage()] }];
}
