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
  params: Record<string, string>;
}

export interface RouteTable<T> {
  match(method: string, path: string): RouteMatch<T> | undefined;
}

export function buildRouteTable<T extends { route: { method: string; path: string } }>(modules: readonly T[]): RouteTable<T> {
  const literal = new Map<string, T>();
  const groups = new Map<string, CompiledRoute<T>[]>();
  for (const module of modules) {
    const segments = module.route.path.split('/').filter(Boolean);
    const placeholders = segments.map((segment) => (segment.startsWith('{') ? segment.slice(1, -1) : undefined));
    const key = `${module.route.method} ${segments.length}`;
    if (placeholders.every((name) => name === undefined)) {
      const path = `${module.route.method} /${segments.join('/')}`;
      if (!literal.has(path)) literal.set(path, module);
    }
    const group = groups.get(key) ?? [];
    group.push({ route: module, segments, placeholders });
    groups.set(key, group);
  }
  const literalCount = (route: CompiledRoute<T>) => route.placeholders.filter((name) => name === undefined).length;
  // A stable sort: among equally literal routes, the declaration order decides, as before.
  for (const group of groups.values()) group.sort((a, b) => literalCount(b) - literalCount(a));

  return {
    match(method, path) {
      const parts = path.split('/').filter(Boolean);
      const exact = literal.get(`${method} /${parts.join('/')}`);
      if (exact) return { route: exact, params: Object.create(null) as Record<string, string> };
      for (const candidate of groups.get(`${method} ${parts.length}`) ?? []) {
        let ok = true;
        for (let index = 0; index < parts.length; index++) {
          if (candidate.placeholders[index] === undefined && candidate.segments[index] !== parts[index]) {
            ok = false;
            break;
          }
        }
        if (!ok) continue;
        const params = Object.create(null) as Record<string, string>;
        candidate.placeholders.forEach((name, index) => {
          if (name !== undefined) params[name] = decodeSegment(parts[index], name);
        });
        return { route: candidate.route, params };
      }
      return undefined;
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
