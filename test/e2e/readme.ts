/** The README as the e2e tests run it: its sections' shell blocks, run by bash as a reader would. */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The text of the README section under `heading` (a `## ` line), up to the next one. */
export function readmeSection(heading: string): string {
  const start = readme.indexOf(`## ${heading}\n`);
  if (start < 0) throw new Error(`README has no section ${heading}`);
  return readme.slice(start, readme.indexOf('\n## ', start + 1));
}

/** The fenced blocks of a section in one language (sh, text), in order. */
export function fencedBlocks(section: string, language: string): string[] {
  return [...section.matchAll(new RegExp('```' + language + '\\n([\\s\\S]*?)```', 'g'))].map((match) => match[1]);
}

/** Runs a script with bash, as the README's reader would; resolves to what it printed. */
export function bash(script: string, env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('bash', ['-c', script], { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 60_000 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
    );
  });
}
