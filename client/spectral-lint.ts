/**
 * `npm run openapi:spectral` (part of `npm run lint`): lints the document the route table generates
 * (the one the API serves) with Spectral and the OWASP API Security ruleset, by the rules of
 * .spectral.yaml. Any error or warning fails.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROUTES } from '../functions/routes';
import { parseCommandLine } from '../local/command-line';
import { buildOpenApiDocument } from '../shared/http/openapi';

parseCommandLine('usage: npm run openapi:spectral   (no arguments; lints the generated OpenAPI document by .spectral.yaml)', {});

const repoRoot = fileURLToPath(new URL('../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'bizops-spectral-'));
try {
  const file = join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify(buildOpenApiDocument(ROUTES)));
  const cli = createRequire(import.meta.url).resolve('@stoplight/spectral-cli/dist/index.js');
  const run = spawnSync(process.execPath, [cli, 'lint', file, '--ruleset', join(repoRoot, '.spectral.yaml'), '--fail-severity', 'warn'], {
    stdio: 'inherit',
  });
  process.exitCode = run.status ?? 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
