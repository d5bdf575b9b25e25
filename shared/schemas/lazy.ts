/**
 * Schemas are built when they are first used, not when their modules load, and building one is
 * the first thing that loads zod. A function bundle imports whole schema modules, and each
 * bundle carries zod in its own file, loaded on first use (infra/bundle.ts, zodOnFirstUse): a
 * request's path and query parameters are declared once and read without zod
 * (shared/schemas/parameters.ts), and production never validates responses, so a cold read
 * neither compiles nor runs zod (docs/decisions.md, "zod is loaded on first use").
 *
 * - Resource schemas (bodies, responses, event objects): `lazySchema(() => z.object(...))`, a
 *   `z.lazy` built on first use.
 * - Path and query schemas: `pathParams({...})`, `queryParams({...})` and `listQuery({...})`
 *   (shared/schemas/parameters.ts, shared/schemas/list.ts), built with onFirstUse.
 *
 * Both return an object that becomes the schema on its first operation (see onFirstUse), so it
 * is the schema for every caller: its methods, its fields, `instanceof`, zod's own references.
 * Nothing at module level may call zod in a route's module graph: the bundle test imports every
 * function bundle and fails if one loads zod at import.
 */
import { z } from 'zod';

/**
 * A schema created on first use: `build()` runs on the first operation on the returned object,
 * and the schema it returns is then constructed again in place, with the returned object as the
 * instance, as zod's own `.clone()` does (`new schema._zod.constr(schema._zod.def)`). So the
 * object the module exports is the schema itself, not a wrapper around one: every reference zod
 * keeps to it (its JSON Schema processors key their bookkeeping by it) is that object, and
 * metadata registered on the built schema (`.meta({ id })`) is registered on it too.
 */
export function onFirstUse<T extends z.ZodType>(build: () => T): T {
  const target = {};
  let created = false;
  const create = () => {
    if (created) return;
    // Built before the flag is set, so a build that throws is tried again by the next use; the
    // flag is set before zod's constructor runs, which reads the instance it is building.
    const built = build();
    created = true;
    Object.setPrototypeOf(target, Object.getPrototypeOf(built) as object);
    // zod's constructors are functions that build whatever `this` they are given (core.$constructor).
    (built._zod.constr as unknown as (this: object, def: object) => void).call(schema, built._zod.def);
    const metadata = z.globalRegistry.get(built);
    if (metadata) z.globalRegistry.add(schema, metadata);
  };
  const schema = new Proxy(target, {
    get: (_, key, receiver): unknown => (create(), Reflect.get(target, key, receiver)),
    set: (_, key, value, receiver) => (create(), Reflect.set(target, key, value, receiver)),
    has: (_, key) => (create(), Reflect.has(target, key)),
    ownKeys: () => (create(), Reflect.ownKeys(target)),
    getOwnPropertyDescriptor: (_, key) => (create(), Reflect.getOwnPropertyDescriptor(target, key)),
    defineProperty: (_, key, descriptor) => (create(), Reflect.defineProperty(target, key, descriptor)),
    deleteProperty: (_, key) => (create(), Reflect.deleteProperty(target, key)),
    getPrototypeOf: () => (create(), Reflect.getPrototypeOf(target)),
  }) as unknown as T;
  return schema;
}

/** A resource schema: `z.lazy(build)`, created on first use. */
export const lazySchema = <T extends z.ZodType>(build: () => T): z.ZodLazy<T> => onFirstUse(() => z.lazy(build));

/** The schema behind a lazy resource schema, built on this first call: for `.extend()` and `.shape`. */
export const builtSchema = <T extends z.ZodType>(schema: z.ZodLazy<T>): T => schema._zod.innerType;
