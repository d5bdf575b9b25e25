/** The connection URL of another database on the same server (tests, benchmarks, tooling). */
export function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}
