/**
 * Bundle stand-in for `glob`: node-pg-migrate only globs when `useGlob` is set, which we never
 * set (migrations are read from one directory). Saves ~80 KB in the migration function.
 */
export function glob(): never {
  throw new Error('glob is not bundled: run migrations with useGlob false');
}
