/**
 * The local gateway's route table, built once at start-up: routes grouped by method and segment
 * count, each group ordered with the most literal segments first (literal segments win over
 * placeholders, as in API Gateway: /api-keys/{id}/roll before /api-keys/{id}), and fully literal
 * paths in a map of their own. A request then looks at one small group instead of filtering and
 * sorting every route.
 */
import { ApiError } from '../shared/errors';

interface CompiledRoute<T> {
  route: T;
  segments: string[];
  /** Index → parameter name, for the placeholder segments. */
  placeholders: (string | undefined)[];
}

interface RouteMatch<T> {
  route: T;
  /** The path parameters; null for a route without placeholders. */
  params: Record<string, string> | null;
}

export interface RouteTable<T> {
  match(method: string, path: string): RouteMatch<T> | undefined;
  /** The methods that have a route at this path (empty when none has): a 405's Allow. */
  methodsAt(path: string): string[];
}

export function buildRouteTable<T extends { route: { method: string; path: string } }>(modules: readonly T[]): RouteTable<T> {
  const literal = new Map<string, T>();
  /** Method → segment count → the routes of that shape, most literal first. */
  const groups = new Map<string, CompiledRoute<T>[][]>();
  for (const module of modules) {
    const segments = module.route.path.split('/').filter(Boolean);
    const placeholders = segments.map((segment) => (segment.startsWith('{') ? segment.slice(1, -1) : undefined));
    if (placeholders.every((name) => name === undefined)) {
      const path = `${module.route.method} /${segments.join('/')}`;
      if (!literal.has(path)) literal.set(path, module);
    }
    let byCount = groups.get(module.route.method);
    if (!byCount) groups.set(module.route.method, (byCount = []));
    (byCount[segments.length] ??= []).push({ route: module, segments, placeholders });
  }
  const literalCount = (route: CompiledRoute<T>) => route.placeholders.filter((name) => name === undefined).length;
  // A stable sort: among equally literal routes, the declaration order decides, as before.
  for (const byCount of groups.values()) for (const group of byCount) group?.sort((a, b) => literalCount(b) - literalCount(a));

  return {
    // Runs for every request: a path without empty segments (all but odd ones) is neither
    // filtered nor joined again, and the group is found without building a key.
    match(method, path) {
      const clean = path.length > 1 && path.startsWith('/') && !path.endsWith('/') && !path.includes('//');
      const parts = clean ? path.slice(1).split('/') : path.split('/').filter(Boolean);
      const exact = literal.get(clean ? `${method} ${path}` : `${method} /${parts.join('/')}`);
      if (exact) return { route: exact, params: null };
      const group = groups.get(method)?.[parts.length];
      if (!group) return undefined;
      for (const candidate of group) {
        let index = 0;
        while (index < parts.length && (candidate.placeholders[index] !== undefined || candidate.segments[index] === parts[index])) index++;
        if (index < parts.length) continue;
        // The names are the route table's own placeholders, so a plain object is safe here.
        const params: Record<string, string> = {};
        for (index = 0; index < parts.length; index++) {
          const name = candidate.placeholders[index];
          if (name !== undefined) params[name] = decodeSegment(parts[index], name);
        }
        return { route: candidate.route, params };
      }
      return undefined;
    },
    // Only after a miss; a malformed path is a miss for every method (its 400 comes from match).
    methodsAt(path) {
      return [...groups.keys()]
        .filter((method) => {
          try {
            return this.match(method, path) !== undefined;
          } catch {
            return false;
          }
        })
        .sort();
    },
  };
}

/** A path parameter, percent-decoded; a malformed escape (`%zz`, a lone `%`, invalid UTF-8) is a 400 on that parameter. */
function decodeSegment(raw: string, name: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new ApiError('parameter_invalid', { param: name, hint: `Invalid ${name}: the path segment is not valid percent-encoding.` });
  }
}
