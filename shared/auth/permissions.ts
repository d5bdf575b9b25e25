/**
 * User permissions: what the person behind a key may do, distinct from the key's scopes. A scope
 * lets a key call a route; a permission lets its user take a decision the route offers (approve,
 * override, close a period).
 */
import type { Db } from '../db/database';
import { ApiError } from '../errors';

export const PERMISSIONS = ['orders.revision_override', 'orders.approve', 'purchasing.approve_bills', 'accounting.close_periods', 'api_keys.manage'] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** Whether the user behind a key holds a permission (false for an unknown or other-entity user). */
async function userHasPermission(db: Db, actor: { entityId: string; userId: string }, permission: Permission): Promise<boolean> {
  const row = await db.maybeOne<{ granted: boolean }>(`SELECT $3 = ANY(permissions) AS granted FROM users WHERE entity_id = $1 AND id = $2`, [
    actor.entityId,
    actor.userId,
    permission,
  ]);
  return row?.granted === true;
}

/** 403 insufficient_permissions, naming the permission, unless the user holds it. */
export async function requirePermission(
  db: Db,
  actor: { entityId: string; userId: string },
  permission: Permission,
  options: { hint: string; param?: string },
): Promise<void> {
  if (await userHasPermission(db, actor, permission)) return;
  throw new ApiError('insufficient_permissions', { ...options, details: { permission } });
}
