/** SQL for tags and their attachments to resources (accounts, products, vendors and order documents). */
import type { Db } from '../db/database';
import { isUniqueViolation } from '../db/database';
import { ApiError } from '../errors';
import { keysetPage, type Page, type PageRequest } from '../db/keyset';
import { newId } from '../ids';
import { hasParty, keySharedParty, type PartyKind } from '../parties/parties';
import type { Tag, TagCreate, TagResourceType } from './schemas/tag';

const TAG_COLUMNS = `t.id, 'tag' AS object, t.entity_id, t.name, t.color, t.metadata, t.created_at, t.updated_at`;

/** Resource types that are parties: checked through the parties capability. */
const PARTY_KINDS: Partial<Record<TagResourceType, PartyKind>> = { account: 'account', vendor: 'vendor' };

/**
 * Whether a resource that a capability above the catalog owns (an order document, a vendor bill)
 * exists in the entity, key-share locked when `lock`; undefined for a type this version serves no
 * resources of. The route asks the owner (functions/tags/owned-resources.ts).
 */
export type OwnedResourceExists = (resourceType: TagResourceType, resourceId: string, lock: boolean) => Promise<boolean | undefined>;

export async function createTag(db: Db, entityId: string, input: TagCreate): Promise<Tag> {
  try {
    return await db.one<Tag>(`INSERT INTO tags AS t (id, entity_id, name, color, metadata) VALUES ($1, $2, $3, $4, $5) RETURNING ${TAG_COLUMNS}`, [
      newId(),
      entityId,
      input.name,
      input.color ?? null,
      input.metadata ?? {},
    ]);
  } catch (error) {
    if (isUniqueViolation(error, 'tags_name_unique')) throw new ApiError('tag_name_taken', { param: 'name' });
    throw error;
  }
}

export function listTags(db: Db, entityId: string, filters: { name?: string }, page: PageRequest): Promise<Page<Tag>> {
  const where = ['t.entity_id = $1'];
  const params: unknown[] = [entityId];
  if (filters.name !== undefined) {
    params.push(filters.name);
    where.push(`lower(t.name) = lower($${params.length})`);
  }
  return keysetPage<Tag>(db, { table: 'tags', alias: 't', select: TAG_COLUMNS, where, params }, page);
}

/**
 * A resource of a type this version serves must exist in the entity (404 otherwise). contact and
 * package resources are not served yet: reads answer an empty list, writes 422. Writers take a
 * key-share lock so the resource cannot be deleted while its tag row is written.
 */
async function checkResource(
  db: Db,
  entityId: string,
  resourceType: TagResourceType,
  resourceId: string,
  writing: boolean,
  ownedElsewhere: OwnedResourceExists,
): Promise<boolean> {
  const partyKind = PARTY_KINDS[resourceType];
  const found = partyKind
    ? writing
      ? (await keySharedParty(db, partyKind, entityId, resourceId)) !== undefined
      : await hasParty(db, partyKind, entityId, resourceId)
    : resourceType === 'product'
      ? (await db.maybeOne(`SELECT 1 FROM products WHERE entity_id = $1 AND id = $2 ${writing ? 'FOR KEY SHARE' : ''}`, [entityId, resourceId])) !== undefined
      : await ownedElsewhere(resourceType, resourceId, writing);
  if (found === undefined) {
    if (writing) {
      throw new ApiError('resource_type_unavailable', {
        param: 'resourceType',
        hint: `This API version serves no ${resourceType} resources, so nothing can be tagged as one yet.`,
      });
    }
    return false;
  }
  if (!found) throw new ApiError('not_found', { param: 'resourceId', hint: `No such ${resourceType} in this entity.` });
  return true;
}

export async function tagsOf(
  db: Db,
  entityId: string,
  resourceType: TagResourceType,
  resourceId: string,
  ownedElsewhere: OwnedResourceExists,
): Promise<{ data: Tag[] }> {
  if (!(await checkResource(db, entityId, resourceType, resourceId, false, ownedElsewhere))) return { data: [] };
  const data = await db.query<Tag>(
    `SELECT ${TAG_COLUMNS} FROM tag_assignments a JOIN tags t ON t.entity_id = a.entity_id AND t.id = a.tag_id
     WHERE a.entity_id = $1 AND a.resource_type = $2 AND a.resource_id = $3 ORDER BY lower(t.name), t.id`,
    [entityId, resourceType, resourceId],
  );
  return { data };
}

/** Attaching a tag twice changes nothing (the response is the same list). */
export async function attachTag(
  db: Db,
  entityId: string,
  resourceType: TagResourceType,
  resourceId: string,
  tagId: string,
  ownedElsewhere: OwnedResourceExists,
) {
  await checkResource(db, entityId, resourceType, resourceId, true, ownedElsewhere);
  const tag = await db.maybeOne<Tag>(`SELECT ${TAG_COLUMNS} FROM tags t WHERE t.entity_id = $1 AND t.id = $2 FOR KEY SHARE`, [entityId, tagId]);
  if (!tag) throw new ApiError('not_found', { param: 'tag_id', hint: 'No such tag in this entity.' });
  const inserted = await db.query(
    `INSERT INTO tag_assignments (id, entity_id, tag_id, resource_type, resource_id) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (entity_id, resource_type, resource_id, tag_id) DO NOTHING RETURNING id`,
    [newId(), entityId, tagId, resourceType, resourceId],
  );
  return { tag, attached: inserted.length > 0, tags: await tagsOf(db, entityId, resourceType, resourceId, ownedElsewhere) };
}

export async function detachTag(
  db: Db,
  entityId: string,
  resourceType: TagResourceType,
  resourceId: string,
  tagId: string,
  ownedElsewhere: OwnedResourceExists,
) {
  await checkResource(db, entityId, resourceType, resourceId, true, ownedElsewhere);
  const removed = await db.query<{ id: string }>(
    'DELETE FROM tag_assignments WHERE entity_id = $1 AND resource_type = $2 AND resource_id = $3 AND tag_id = $4 RETURNING id',
    [entityId, resourceType, resourceId, tagId],
  );
  if (removed.length === 0) throw new ApiError('not_found', { param: 'tagId', hint: 'This tag is not attached to the resource.' });
  return tagsOf(db, entityId, resourceType, resourceId, ownedElsewhere);
}
