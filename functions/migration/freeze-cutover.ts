import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute, requireOwnEntity } from '../../shared/http/route';
import { freezeEntity } from '../../shared/migration/cutover-freeze';
import { CutoverFreeze, FreezeRequest } from '../../shared/migration/schemas/cutover';
import { entityScopedParams } from '../../shared/schemas/parameters';

export const route = defineRoute({
  id: 'migration.cutover_freeze',
  method: 'POST',
  path: '/v1/entities/{entity_id}/migration/cutover/freeze',
  tag: 'Migration',
  summary: 'Freeze the entity for cutover',
  description: [
    'Stops writes for the entity: from now on every POST, PATCH and DELETE of a key without migration:admin answers 409 entity_frozen and changes nothing;',
    'GET requests continue, and keys with migration:admin still write (the migration team finishing the cutover).',
    'Returns the freeze token the snapshot request must quote. Freezing a frozen entity is 409 entity_already_frozen (unfreeze first).',
    'Recorded in the cutover log. Each mode of an entity (live, test) is frozen on its own.',
  ].join(' '),
  scopes: ['migration:admin'],
  params: entityScopedParams,
  body: FreezeRequest,
  response: CutoverFreeze,
  errors: ['entity_already_frozen'],
  handler: (ctx, { params, body }) => {
    requireOwnEntity(ctx, params.entity_id);
    return freezeEntity(ctx.db, ctx.entityId, ctx, body?.description);
  },
});

export const handler = lambdaHandler(route, idempotency);
