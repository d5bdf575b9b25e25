/**
 * Where GET /v1/openapi.json gets its document. On AWS the bundling step writes the generated
 * document next to the function's code (so that function does not bundle every route); locally and
 * in tests the gateway builds it from the route table it serves.
 *
 * The document is served as text: the generated JSON with its placeholder `servers` replaced by the
 * serving deployment's. Parsing 1.7 MB of JSON and writing it out again cost a cold start about
 * 30 ms, and every later request 10 ms, for a change to one member.
 */
import { fileURLToPath } from 'node:url';
import { crc32 } from 'node:zlib';
import { deploymentStage, publicBaseUrl, type DeploymentStage } from '../public-url';
import { asciiJson, readServedText, servedText, type ServedText } from './served-text';

type Source = () => Promise<Record<string, unknown>> | Record<string, unknown>;

export const OPENAPI_FILE = 'openapi.json';

let source: Source | undefined;
/** The generated document as compact JSON, with the placeholder server, and its ETag. */
let generated: Promise<ServedText> | undefined;
/** The last document served, by the servers it names (they come from the environment). */
let served: { servers: string; text: ServedText } | undefined;

export function setOpenApiSource(next: Source): void {
  source = next;
  generated = undefined;
  served = undefined;
}

function generatedText(): Promise<ServedText> {
  generated ??= source
    ? Promise.resolve(source()).then((document) => servedText(openApiText(document)))
    : // Bundled, this module is the function's index.mjs, and the document sits beside it with its ETag.
      Promise.resolve(readServedText(fileURLToPath(new URL(`./${OPENAPI_FILE}`, import.meta.url)), { etagBeside: true }));
  return generated;
}

/** The generated document as it is served and shipped: compact, ASCII JSON (served-text.ts). */
export function openApiText(document: unknown): string {
  return asciiJson(document);
}

/**
 * The document as this deployment serves it: the generated JSON naming this deployment's server.
 * The served text is made of exactly those two, so its ETag is the generated document's with the
 * CRC-32 of the servers beside it: no hash of 3 MB of text, and no node:crypto to load on a cold
 * start (a few milliseconds of a public route's first answer).
 */
export async function loadOpenApiText(): Promise<ServedText> {
  const servers = `"servers":${JSON.stringify(deploymentServers())}`;
  if (served?.servers !== servers) {
    const { body, etag } = await generatedText();
    const at = body.indexOf(PLACEHOLDER_SERVERS);
    if (at < 0) throw new Error('the generated OpenAPI document must name the placeholder server');
    served = {
      servers,
      text: { body: body.slice(0, at) + servers + body.slice(at + PLACEHOLDER_SERVERS.length), etag: `${etag.slice(0, -1)}-${crc32(servers).toString(36)}"` },
    };
  }
  return served.text;
}

interface Server {
  url: string;
  description: string;
  /** Every stage is public to integrators (the API inventory's audience; OWASP API9). */
  'x-internal': false;
}

const STAGE_DESCRIPTIONS: Record<DeploymentStage, string> = {
  prod: 'Production: live keys act on live data, test keys on test data.',
  sandbox: 'Sandbox: test keys and test data only.',
  local: 'Local: this machine (npm start).',
};

/** The generated document's placeholder server; the serving deployment states its own. */
export const LOCAL_SERVER: Server = { url: 'http://localhost:3000', description: STAGE_DESCRIPTIONS.local, 'x-internal': false };
/** The placeholder as the generated document's compact JSON writes it. */
const PLACEHOLDER_SERVERS = `"servers":${JSON.stringify([LOCAL_SERVER])}`;

/** The server of the deployment that serves the document: its stage and public root. */
function deploymentServers(): Server[] {
  return [{ url: publicBaseUrl(), description: STAGE_DESCRIPTIONS[deploymentStage()], 'x-internal': false }];
}
