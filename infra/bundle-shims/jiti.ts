/**
 * Bundle stand-in for `jiti`. node-pg-migrate loads JavaScript/TypeScript migrations through
 * jiti, but ours are plain SQL, so the migration function never calls it; the real package would
 * add ~190 KB to that bundle. Anything that does call it fails loudly.
 */
export function createJiti() {
  return {
    import(file: string): never {
      throw new Error(`${file}: only SQL migrations are bundled with the migration function`);
    },
  };
}
