/**
 * What our sources' `import { z } from 'zod'` becomes in a function bundle: zod's namespace, read
 * from `zod.cjs` beside the bundle's `index.mjs` on the first use of any member. Compiling and
 * evaluating zod was most of a cold read's start, and a read by id never uses it (responses are
 * validated in tests only; infra/bundle.ts, zodOnFirstUse). CommonJS because `require()` loads it
 * synchronously, where a schema is first built. The file name is infra/bundle.ts's ZOD_FILE.
 */
import { createRequire } from 'node:module';
import type * as Zod from 'zod';

let zod: typeof Zod | undefined;
const load = (): typeof Zod => (zod ??= createRequire(import.meta.url)('./zod.cjs') as typeof Zod);

export const z = new Proxy({} as typeof Zod, { get: (_, name): unknown => Reflect.get(load(), name) });
