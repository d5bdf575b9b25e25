/**
 * A request's schema (a create or update body) declared beside its resource's. Called as
 * `/* @__PURE__ *\/ requestSchema(() => ...)`, it builds the schema when its module loads, like any
 * other, while esbuild may leave the call out of a bundle that never reads the schema: a GET's
 * function then builds its resource's schema, not the bodies of the writes declared beside it.
 */
export function requestSchema<S>(build: () => S): S {
  return build();
}
