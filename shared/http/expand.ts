/**
 * `expand[]`: hydrate related records in place of (or beside) their ids.
 *
 * A resource declares which paths may be expanded and a batch loader for each. A loader receives
 * every parent object at once (all items of a list page), so an expansion costs one query however
 * many rows the page holds. `a.b` expands `b` on the objects found at `a`, after `a` is expanded.
 */
import type { Db } from '../db/database';
import { ApiError } from '../errors';

export interface ExpandLoaderContext {
  db: Db;
  /** The caller's entity. */
  entityId?: string;
  /** The objects the expansion starts from (the response, or each item of a list page): a report's expansion answers as of their date. */
  roots?: readonly Record<string, unknown>[];
}
export type ExpandLoader = (ctx: ExpandLoaderContext, parents: Record<string, unknown>[]) => Promise<void>;
export type ExpandSpec = Record<string, ExpandLoader>;

export const MAX_EXPAND_DEPTH = 4;

/**
 * Checks requested paths against the whitelist. On lists the paths carry the `data.` prefix
 * (as in Stripe); the returned paths have it removed.
 */
export function parseExpand(requested: string[], spec: ExpandSpec | undefined, isList: boolean): string[] {
  // Most requests expand nothing: no whitelist to build.
  if (requested.length === 0) return [];
  const allowed = new Set(Object.keys(spec ?? {}));
  const paths: string[] = [];
  requested.forEach((value, index) => {
    const path = isList ? (value.startsWith('data.') ? value.slice(5) : undefined) : value;
    if (path === undefined || !allowed.has(path) || path.split('.').length > MAX_EXPAND_DEPTH) {
      const choices = [...allowed].map((name) => (isList ? `data.${name}` : name));
      throw new ApiError('expand_error', {
        param: `expand[${index}]`,
        hint: choices.length
          ? `'${value}' cannot be expanded here; allowed: ${choices.join(', ')}.`
          : `'${value}' cannot be expanded here; this endpoint expands nothing.`,
      });
    }
    if (!paths.includes(path)) paths.push(path);
  });
  // Expanding a.b needs a first; a parent listed explicitly or not, it runs before its children.
  for (const path of [...paths]) {
    const parts = path.split('.');
    for (let depth = 1; depth < parts.length; depth++) {
      const parent = parts.slice(0, depth).join('.');
      if (!paths.includes(parent) && allowed.has(parent)) paths.push(parent);
    }
  }
  return paths.sort((a, b) => a.split('.').length - b.split('.').length);
}

function objectsAt(roots: Record<string, unknown>[], path: string[]): Record<string, unknown>[] {
  let current: unknown[] = roots;
  for (const key of path) {
    current = current.flatMap((item) => {
      const value = (item as Record<string, unknown> | null)?.[key];
      return Array.isArray(value) ? (value as unknown[]) : value == null ? [] : [value];
    });
  }
  return current.filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null);
}

export async function applyExpand(ctx: ExpandLoaderContext, roots: Record<string, unknown>[], paths: string[], spec: ExpandSpec | undefined): Promise<void> {
  for (const path of paths) {
    const parts = path.split('.');
    const parents = objectsAt(roots, parts.slice(0, -1));
    if (parents.length > 0) await spec![path](ctx, parents);
  }
}

/** Builds a loader that replaces nothing but adds `field` beside `idField`, loaded by id in one query. */
export function expandById<T extends { id: string }>(idField: string, field: string, load: (db: Db, ids: string[]) => Promise<T[]>): ExpandLoader {
  return async ({ db }, parents) => {
    const ids = [...new Set(parents.map((parent) => parent[idField]).filter((id): id is string => typeof id === 'string'))];
    const byId = new Map((ids.length ? await load(db, ids) : []).map((row) => [row.id, row]));
    for (const parent of parents) parent[field] = byId.get(parent[idField] as string) ?? null;
  };
}
