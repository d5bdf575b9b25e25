import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute, requireOwnEntity } from '../../shared/http/route';
import { unfreezeEntity } from '../../shared/migration/cutover-freeze';
import { CutoverFreeze } from '../../shared/migration/schemas/cutover';
import { entityScopedParams } from '../../shared/schemas/parameters';

export const route = defineRoute({
  id: 'migration.cutover_unfreeze',
  method: 'POST',
  path: '/v1/entities/{entity_id}/migration/cutover/unfreeze',
  tag: 'Migration',
  summary: 'Lift the cutover freeze',
  description:
    'Lifts the freeze: writes of every key with the right scope are accepted again, and the freeze token stops being valid. A snapshot already started runs on. 409 entity_not_frozen when the entity is not frozen. Recorded in the cutover log.',
  scopes: ['migration:admin'],
  params: entityScopedParams,
  response: CutoverFreeze,
  errors: ['entity_not_frozen'],
  handler: (ctx, { params }) => {
    requireOwnEntity(ctx, params.entity_id);
    return unfreezeEntity(ctx.db, ctx.entityId, ctx);
  },
});

export const handler = lambdaHandler(route, idempotency);
