/**
 * Resource schemas (bodies, responses, event objects) are declared as `z.lazy(() => ...)`: zod
 * builds a schema when it is first used, not when its module loads. A function bundle imports
 * whole schema modules, and building every schema in them was most of a cold start's module
 * evaluation (2 ms for a location route, 6 to 14 ms for order and vendor bill routes), though a
 * request parses only its own input. Production never validates responses, so a read builds its
 * path parameters and nothing else. Path and query schemas stay plain objects: the handler stack
 * and the OpenAPI document read their fields.
 */
import type { z } from 'zod';

/** The schema behind a lazy resource schema, built on this first call: for `.extend()` and `.shape`. */
export const builtSchema = <T extends z.ZodType>(schema: z.ZodLazy<T>): T => schema._zod.innerType;
