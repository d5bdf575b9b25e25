/**
 * `npm start` as a child process on a fresh data folder and a free port, for the end-to-end tests:
 * they drive it over HTTP the way an integrator does.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createFileDatabase } from '../support/harness';

export interface LocalServer {
  baseUrl: string;
  demoKey: string;
  dataDir: string;
  /** What the server printed so far. */
  output(): string;
  stop(): Promise<void>;
}

async function waitFor(predicate: () => boolean, timeoutMs: number, output: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`server did not start:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** `settings`: extra environment for the server (the webhook tests shorten its retry schedule). */
export async function startLocalServer(settings: NodeJS.ProcessEnv = {}): Promise<LocalServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bizops-e2e-'));
  const database = await createFileDatabase();
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const env: NodeJS.ProcessEnv = { ...process.env, ...settings, PORT: String(port), DATA_DIR: dataDir };
  delete env.PUBLIC_BASE_URL;
  // With a real PostgreSQL (CI) the server uses a database of its own; otherwise its embedded one.
  if (process.env.DATABASE_URL) env.DATABASE_URL = database.url;
  else delete env.DATABASE_URL;
  let output = '';
  const server: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'local/server.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  server.stdout!.on('data', (chunk) => (output += chunk));
  server.stderr!.on('data', (chunk) => (output += chunk));
  const printed = () => output;
  await waitFor(() => output.includes('listening on'), 90_000, printed);
  await waitFor(() => /bo_test_ent_demo_\w{32}/.test(output), 10_000, printed);
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    demoKey: readFileSync(path.join(dataDir, 'demo-key.txt'), 'utf8').trim(),
    dataDir,
    output: printed,
    async stop() {
      if (server.exitCode === null) {
        const exited = new Promise((resolve) => server.once('exit', resolve));
        server.kill('SIGTERM');
        await exited;
      }
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
